package io.rdmascope.proto.ib;

/**
 * The RC opcode bytes (IBTA Vol. 1 9.2.1 table 38) the upper-layer protocols and the operation tracker
 * compare a frame's BTH opcode with, named by service and operation ({@link Opcodes#code}) like every
 * other opcode: one set, so no protocol module keeps a numbered table of its own.
 */
public final class RcOpcodes {
    public static final int SEND_FIRST = Opcodes.code(Service.RC, Operation.SEND_FIRST);
    public static final int SEND_ONLY = Opcodes.code(Service.RC, Operation.SEND_ONLY);
    public static final int SEND_ONLY_WITH_IMMEDIATE = Opcodes.code(Service.RC, Operation.SEND_ONLY_WITH_IMMEDIATE);
    public static final int WRITE_FIRST = Opcodes.code(Service.RC, Operation.RDMA_WRITE_FIRST);
    public static final int WRITE_MIDDLE = Opcodes.code(Service.RC, Operation.RDMA_WRITE_MIDDLE);
    public static final int WRITE_LAST = Opcodes.code(Service.RC, Operation.RDMA_WRITE_LAST);
    public static final int WRITE_LAST_WITH_IMMEDIATE = Opcodes.code(Service.RC, Operation.RDMA_WRITE_LAST_WITH_IMMEDIATE);
    public static final int WRITE_ONLY = Opcodes.code(Service.RC, Operation.RDMA_WRITE_ONLY);
    public static final int WRITE_ONLY_WITH_IMMEDIATE = Opcodes.code(Service.RC, Operation.RDMA_WRITE_ONLY_WITH_IMMEDIATE);
    public static final int READ_REQUEST = Opcodes.code(Service.RC, Operation.RDMA_READ_REQUEST);
    public static final int READ_RESPONSE_FIRST = Opcodes.code(Service.RC, Operation.RDMA_READ_RESPONSE_FIRST);
    public static final int READ_RESPONSE_LAST = Opcodes.code(Service.RC, Operation.RDMA_READ_RESPONSE_LAST);
    public static final int READ_RESPONSE_ONLY = Opcodes.code(Service.RC, Operation.RDMA_READ_RESPONSE_ONLY);
    public static final int ACKNOWLEDGE = Opcodes.code(Service.RC, Operation.ACKNOWLEDGE);
    public static final int SEND_ONLY_WITH_INVALIDATE = Opcodes.code(Service.RC, Operation.SEND_ONLY_WITH_INVALIDATE);

    private RcOpcodes() {
    }
}

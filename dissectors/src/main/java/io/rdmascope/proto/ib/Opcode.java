package io.rdmascope.proto.ib;

import io.rdmascope.field.HeaderType;

import java.util.List;

/**
 * One row of the opcode table: what a BTH opcode means and which extension headers follow it, in
 * order. The dissector, the packet builder and the replay engine all read this row; nothing else
 * decides which headers an opcode carries.
 *
 * @param code           the BTH opcode byte
 * @param name           Wireshark's display name, e.g. "Reliable Connection (RC) - RDMA WRITE First"
 * @param service        transport service (opcode bits 7:5)
 * @param operation      operation (opcode bits 4:0), or {@link Operation#UNKNOWN} for reserved codes
 * @param headers        extension headers after the BTH, in wire order
 * @param payloadAllowed whether data may follow the headers
 */
public record Opcode(int code, String name, Service service, Operation operation, List<HeaderType> headers,
                     boolean payloadAllowed) {

    public Opcode {
        headers = List.copyOf(headers);
    }

    /** True for opcodes the IBTA (or the 1.5 extensions) define; false for reserved and vendor codes. */
    public boolean isDefined() {
        return operation != Operation.UNKNOWN;
    }

    /** Info-column text, e.g. "RC RDMA WRITE First". */
    public String shortName() {
        return switch (service) {
            case CNP -> "CNP";
            case RESERVED, VENDOR -> name;
            default -> service.name() + " " + operation.label();
        };
    }
}

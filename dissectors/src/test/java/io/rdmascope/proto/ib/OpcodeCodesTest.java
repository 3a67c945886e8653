package io.rdmascope.proto.ib;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19: an opcode is named by its service and operation ({@link Opcodes#code}), never written out
 * as a number; the numbers come from {@link Operation#code()} and {@link Service#prefix()} and agree
 * with IBTA 9.2.1's tables 35 and 36 as the dissector reads them.
 */
class OpcodeCodesTest {

    @Test
    void everyDefinedOpcodeIsItsServiceAndOperation() {
        List<Opcode> defined = Opcodes.defined();
        assertTrue(defined.size() > 60, "defined opcodes: " + defined.size());
        List<String> wrong = new ArrayList<>();
        for (Opcode o : defined) {
            if (o.code() == 0x80) {
                continue; // the IB congestion annex's CNP; Operation.CNP names the RoCEv2 one, 0x81
            }
            int code = Opcodes.code(o.service(), o.operation());
            if (code != o.code()) {
                wrong.add(o.name() + ": 0x" + Integer.toHexString(o.code()) + " named 0x" + Integer.toHexString(code));
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void tableValuesAsIbtaWritesThem() {
        assertEquals(0x04, Opcodes.code(Service.RC, Operation.SEND_ONLY));
        assertEquals(0x2A, Opcodes.code(Service.UC, Operation.RDMA_WRITE_ONLY));
        assertEquals(0x64, Opcodes.code(Service.UD, Operation.SEND_ONLY));
        assertEquals(0xAC, Opcodes.code(Service.XRC, Operation.RDMA_READ_REQUEST));
        assertEquals(0x81, Opcodes.code(Service.CNP, Operation.CNP));
        assertEquals(0x1C, Opcodes.code(Service.RC, Operation.FLUSH));
        assertEquals(0x51, Opcodes.code(Service.DC, Operation.ACKNOWLEDGE));
    }

    @Test
    void anOperationTheServiceLacksIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Opcodes.code(Service.UD, Operation.RDMA_READ_REQUEST));
        assertThrows(IllegalArgumentException.class, () -> Opcodes.code(Service.UC, Operation.ACKNOWLEDGE));
        assertThrows(IllegalArgumentException.class, () -> Opcodes.code(Service.RC, Operation.RESYNC));
        assertThrows(IllegalArgumentException.class, () -> Opcodes.code(Service.RC, Operation.UNKNOWN));
    }
}

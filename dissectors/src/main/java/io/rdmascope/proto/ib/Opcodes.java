package io.rdmascope.proto.ib;

import io.rdmascope.field.HeaderType;
import io.rdmascope.field.ValueNames;

import java.util.ArrayList;
import java.util.List;

import static io.rdmascope.proto.ib.InfiniBand.AETH;
import static io.rdmascope.proto.ib.InfiniBand.ATOMICACKETH;
import static io.rdmascope.proto.ib.InfiniBand.ATOMICETH;
import static io.rdmascope.proto.ib.InfiniBand.CNP;
import static io.rdmascope.proto.ib.InfiniBand.DETH;
import static io.rdmascope.proto.ib.InfiniBand.FETH;
import static io.rdmascope.proto.ib.InfiniBand.IETH;
import static io.rdmascope.proto.ib.InfiniBand.IMMDT;
import static io.rdmascope.proto.ib.InfiniBand.RDETH;
import static io.rdmascope.proto.ib.InfiniBand.RETH;
import static io.rdmascope.proto.ib.InfiniBand.XRCETH;

/**
 * The one opcode table (IBTA Vol. 1 9.2.1 tables 35/36, IBTA 1.5 FLUSH / ATOMIC WRITE, Annex A14
 * XRC, Annex A17 RoCEv2 CNP). Rows are derived from the RC form of each operation plus the per-service
 * rules written once below (wire-formats.md section 3), so a service's header chain cannot drift
 * from RC's.
 */
public final class Opcodes {
    /**
     * Rows live in a holder so that naming opcodes (needed while {@link InfiniBand} itself is being
     * initialised) does not build rows that refer to InfiniBand's header types too early.
     */
    private static final class Rows {
        static final Opcode[] TABLE = buildTable();
        /** DC rows for 0x40–0x5F: [0..31] ordinary, [32..63] the DC connect form of 0x55. */
        static final Opcode[] DC = buildDc();
    }


    private Opcodes() {
    }

    /** The row for opcode byte {@code code} (0–255); reserved codes have {@link Operation#UNKNOWN}. */
    public static Opcode of(int code) {
        return Rows.TABLE[code & 0xFF];
    }

    /**
     * The row of an RD-range opcode (0x40–0x5F) carried as Mellanox DC (docs/dc.md): the DC header
     * (DCETH, 8 bytes) right after the BTH, then RDETH and DETH where Wireshark shows them, then the
     * operation's RC-form headers — for requests and responses alike, since the DC captures carry
     * the same 12 bytes after the DCETH in both. {@code connect}: a RESYNC (0x55) with the Solicited
     * Event bit clear, Wireshark's test for a DC connect packet, which carries the DC connect header
     * with the DC access key.
     */
    public static Opcode dc(int code, boolean connect) {
        int low = code & 0x1F;
        if (((code & 0xFF) >> 5) != 2) {
            return of(code);
        }
        return Rows.DC[connect && low == 0x15 ? 32 + low : low];
    }

    private static Opcode[] buildDc() {
        Opcode[] rows = new Opcode[64];
        for (int i = 0; i < 64; i++) {
            int code = 0x40 | (i & 0x1F);
            Opcode rd = Rows.TABLE[code];
            if (!rd.isDefined()) {
                rows[i] = new Opcode(code, rd.name(), Service.DC, Operation.UNKNOWN, List.of(), true);
                continue;
            }
            Operation op = rd.operation();
            List<HeaderType> chain = new ArrayList<>(List.of(InfiniBand.DCETH, RDETH, DETH));
            List<HeaderType> rc = rcHeaders(op);
            if (rc != null) {
                chain.addAll(rc);
            }
            boolean payload = carriesPayload(op);
            if (i >= 32) {
                chain.add(InfiniBand.DCCETH);
            }
            rows[i] = new Opcode(code, rd.name(), Service.DC, op, chain, payload || (op == Operation.RESYNC && i < 32));
        }
        return rows;
    }

    /** All defined opcodes, in code order. */
    public static List<Opcode> defined() {
        List<Opcode> out = new ArrayList<>();
        for (Opcode op : Rows.TABLE) {
            if (op.isDefined()) {
                out.add(op);
            }
        }
        return out;
    }

    /** Header chain of each operation in its RC form; null = the operation does not exist. */
    private static List<HeaderType> rcHeaders(Operation op) {
        return switch (op) {
            case SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_ONLY, RDMA_WRITE_MIDDLE, RDMA_WRITE_LAST,
                    RDMA_READ_RESPONSE_MIDDLE -> List.of();
            case SEND_LAST_WITH_IMMEDIATE, SEND_ONLY_WITH_IMMEDIATE, RDMA_WRITE_LAST_WITH_IMMEDIATE -> List.of(IMMDT);
            case RDMA_WRITE_FIRST, RDMA_WRITE_ONLY, RDMA_READ_REQUEST, ATOMIC_WRITE -> List.of(RETH);
            case RDMA_WRITE_ONLY_WITH_IMMEDIATE -> List.of(RETH, IMMDT);
            case RDMA_READ_RESPONSE_FIRST, RDMA_READ_RESPONSE_LAST, RDMA_READ_RESPONSE_ONLY, ACKNOWLEDGE ->
                    List.of(AETH);
            case ATOMIC_ACKNOWLEDGE -> List.of(AETH, ATOMICACKETH);
            case COMPARE_SWAP, FETCH_ADD -> List.of(ATOMICETH);
            case SEND_LAST_WITH_INVALIDATE, SEND_ONLY_WITH_INVALIDATE -> List.of(IETH);
            case FLUSH -> List.of(FETH, RETH);
            case RESYNC, CNP, UNKNOWN -> null;
        };
    }

    private static boolean carriesPayload(Operation op) {
        return switch (op) {
            case RDMA_READ_REQUEST, ACKNOWLEDGE, ATOMIC_ACKNOWLEDGE, COMPARE_SWAP, FETCH_ADD, RESYNC, FLUSH, CNP,
                    UNKNOWN -> false;
            default -> true;
        };
    }

    /** Operations by bits 4:0 in the RC/UC/RD/XRC numbering, from {@link Operation#code()}. */
    private static final Operation[] BY_LOW5 = byLow5();

    private static Operation[] byLow5() {
        Operation[] table = new Operation[32];
        java.util.Arrays.fill(table, Operation.UNKNOWN);
        for (Operation op : Operation.values()) {
            if (op.code() >= 0 && op != Operation.CNP) {
                table[op.code()] = op;
            }
        }
        return table;
    }

    /** Operation for bits 4:0 in the RC/UC/RD/XRC numbering (IBTA table 36 plus IBTA 1.5 0x1C/0x1D). */
    private static Operation operationOf(int low5) {
        return BY_LOW5[low5];
    }

    /**
     * The opcode of {@code operation} on {@code service} (the packet builder's and generator's one way
     * to name an opcode). Refused when the service has no such operation (UD has only SEND Only, UC no
     * READ…).
     */
    public static int code(Service service, Operation operation) {
        if (operation.code() < 0) {
            throw new IllegalArgumentException("no opcode for " + operation);
        }
        int code = service.prefix() | operation.code();
        Opcode defined = service == Service.DC ? dc(code, false) : of(code);
        if (defined.operation() != operation) {
            throw new IllegalArgumentException(service + " has no " + operation);
        }
        return code;
    }

    private static Opcode[] buildTable() {
        Opcode[] table = new Opcode[256];
        for (int code = 0; code < 256; code++) {
            table[code] = row(code);
        }
        return table;
    }

    private static Opcode row(int code) {
        Service service = Service.ofOpcode(code);
        Operation op = operationOf(code & 0x1F);
        List<HeaderType> chain = rcHeaders(op);
        switch (service) {
            case RC -> {
                if (op == Operation.RESYNC) {
                    return unknown(code, service);
                }
            }
            case UC -> {
                // UC carries only SEND and RDMA WRITE (ops 0x00-0x0B).
                if ((code & 0x1F) > 0x0B) {
                    return unknown(code, service);
                }
            }
            case RD -> {
                // RD requests: RDETH, DETH, then the RC form; responses: RDETH then the RC form.
                // RESYNC is RD-only (0x55). RD FLUSH 0x5C: RDETH FETH RETH, per the Linux patch cover
                // letter; nothing else of the 1.5 extensions exists for RD.
                if (op == Operation.ATOMIC_WRITE || op == Operation.SEND_LAST_WITH_INVALIDATE
                        || op == Operation.SEND_ONLY_WITH_INVALIDATE || op == Operation.UNKNOWN) {
                    return unknown(code, service);
                }
                List<HeaderType> rd = new ArrayList<>();
                rd.add(RDETH);
                if (op == Operation.RESYNC) {
                    rd.add(DETH);
                } else if (op.isRequest() && op != Operation.FLUSH) {
                    rd.add(DETH);
                    rd.addAll(chain);
                } else {
                    rd.addAll(chain);
                }
                chain = rd;
            }
            case UD -> {
                // UD has only SEND Only (0x64) and SEND Only with Immediate (0x65): DETH first.
                if (op == Operation.SEND_ONLY) {
                    chain = List.of(DETH);
                } else if (op == Operation.SEND_ONLY_WITH_IMMEDIATE) {
                    chain = List.of(DETH, IMMDT);
                } else {
                    return unknown(code, service);
                }
            }
            case XRC -> {
                // XRC requests name the target SRQ in an XRCETH right after the BTH; responses do not
                // (Annex A14). FLUSH is 0xBC by the same scheme; RESYNC and ATOMIC WRITE do not exist.
                if (op == Operation.RESYNC || op == Operation.ATOMIC_WRITE || op == Operation.UNKNOWN) {
                    return unknown(code, service);
                }
                if (op.isRequest()) {
                    List<HeaderType> xrc = new ArrayList<>();
                    xrc.add(XRCETH);
                    xrc.addAll(chain);
                    chain = xrc;
                }
            }
            case CNP -> {
                // 0x80: CNP of the IB congestion-control annex (A10.3.2); 0x81: the RoCEv2 CNP NICs send
                // (A17.9.3). Wireshark 4.0 knows only 0x80; hardware uses 0x81.
                if (code == 0x80 || code == 0x81) {
                    return new Opcode(code, nameOf(code), service, Operation.CNP, List.of(CNP), false);
                }
                return unknown(code, service);
            }
            case RESERVED, VENDOR, DC -> {
                return unknown(code, service);
            }
        }
        if (chain == null) {
            return unknown(code, service);
        }
        return new Opcode(code, nameOf(code), service, op, chain, carriesPayload(op));
    }

    private static Opcode unknown(int code, Service service) {
        return new Opcode(code, nameOf(code), service, Operation.UNKNOWN, List.of(), true);
    }

    private static String hex2(int v) {
        String h = Integer.toHexString(v);
        return h.length() == 1 ? "0" + h : h;
    }

    /**
     * Opcode names for the {@code infiniband.bth.opcode} field: Wireshark's wording, plus ours for
     * 0x81, 0x1C, 0x1D. Built from the same naming rule as the table but without touching header
     * types, because the BTH field declaration needs these names before the headers exist.
     */
    static ValueNames valueNames() {
        Object[] pairs = new Object[512];
        for (int code = 0; code < 256; code++) {
            pairs[2 * code] = code;
            pairs[2 * code + 1] = nameOf(code);
        }
        return ValueNames.of(pairs);
    }

    /** The display name of an opcode byte (the naming rule of {@link #row}). */
    static String nameOf(int code) {
        Service service = Service.ofOpcode(code);
        Operation op = operationOf(code & 0x1F);
        boolean exists = switch (service) {
            case RC -> op != Operation.UNKNOWN && op != Operation.RESYNC;
            case UC -> (code & 0x1F) <= 0x0B;
            case RD -> op != Operation.UNKNOWN && op != Operation.ATOMIC_WRITE
                    && op != Operation.SEND_LAST_WITH_INVALIDATE && op != Operation.SEND_ONLY_WITH_INVALIDATE;
            case UD -> op == Operation.SEND_ONLY || op == Operation.SEND_ONLY_WITH_IMMEDIATE;
            case XRC -> op != Operation.UNKNOWN && op != Operation.RESYNC && op != Operation.ATOMIC_WRITE;
            case CNP -> code == 0x80 || code == 0x81;
            case RESERVED, VENDOR, DC -> false;
        };
        if (!exists) {
            return (service == Service.VENDOR ? "Manufacturer Specific (0x" : "Reserved (0x") + hex2(code) + ")";
        }
        if (service == Service.CNP) {
            return code == 0x80 ? "CNP" : "CNP (RoCEv2)";
        }
        String label = op.label();
        if (service == Service.UD) {
            label = label.replace("SEND Only", "SEND only"); // Wireshark's spelling for UD
        }
        return service.label() + " - " + label;
    }
}

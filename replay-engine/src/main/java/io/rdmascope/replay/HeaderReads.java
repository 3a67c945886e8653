package io.rdmascope.replay;

import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.Mad;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * What {@link PacketFacts} needs to read a frame's layers fast: a small id per header type it reads
 * (found by identity hash, not by a chain of comparisons per layer) and the fields it reads, each a
 * fixed-offset load. {@code Field.read} interprets a field's length, mask and shift on every call;
 * here they are spelled out once per field. The offsets, widths and masks are the ones the field
 * declarations give ({@code Ip}, {@code Transport}, {@code InfiniBand}, {@code Mad}); a test holds each
 * read equal to its declaration's on random bytes, so the two cannot drift apart.
 */
final class HeaderReads {
    static final int OTHER = 0;
    static final int IPV4 = 1;
    static final int IPV6 = 2;
    static final int UDP = 3;
    static final int LRH = 4;
    static final int GRH = 5;
    static final int BTH = 6;
    static final int AETH = 7;
    static final int RETH = 8;
    static final int DETH = 9;
    static final int IMMDT = 10;
    static final int IETH = 11;
    static final int XRCETH = 12;
    static final int MAD = 13;
    static final int CM = 14;

    /**
     * Bytes a header of each kind must have before its fields are read: a shorter one is a malformed
     * packet (found by fuzzing). 0 for kinds read no further than their type.
     */
    private static final int[] FIXED_SIZE = new int[CM + 1];

    // Open-addressing table from header type (by identity) to kind. Filled once here, never written after.
    private static final int TABLE_SIZE = 64;
    private static final HeaderType[] TYPES = new HeaderType[TABLE_SIZE];
    private static final byte[] KINDS = new byte[TABLE_SIZE];

    static {
        // In kind order: IPV4 is kind 1, IPV6 kind 2, ... MAD kind 13.
        List<HeaderType> byKind = List.of(Ip.IPV4, Ip.IPV6, Transport.UDP, InfiniBand.LRH, InfiniBand.GRH,
                InfiniBand.BTH, InfiniBand.AETH, InfiniBand.RETH, InfiniBand.DETH, InfiniBand.IMMDT, InfiniBand.IETH,
                InfiniBand.XRCETH, Mad.HEADER);
        for (int k = 0; k < byKind.size(); k++) {
            put(byKind.get(k), k + 1);
            FIXED_SIZE[k + 1] = byKind.get(k).fixedLength(); // the header's own size, from its field layout
        }
        for (HeaderType t : Cm.HEADERS) {
            if (kind(t) == OTHER) {
                put(t, CM);
            }
        }
    }

    private HeaderReads() {
    }

    private static void put(HeaderType t, int kind) {
        int i = System.identityHashCode(t) & (TABLE_SIZE - 1);
        while (TYPES[i] != null) {
            i = (i + 1) & (TABLE_SIZE - 1);
        }
        TYPES[i] = t;
        KINDS[i] = (byte) kind;
    }

    /** The kind of header type {@code t}; {@link #OTHER} for every type the replay does not read. */
    static int kind(HeaderType t) {
        int i = System.identityHashCode(t) & (TABLE_SIZE - 1);
        HeaderType k;
        while ((k = TYPES[i]) != null) {
            if (k == t) {
                return KINDS[i];
            }
            i = (i + 1) & (TABLE_SIZE - 1);
        }
        return OTHER;
    }

    static int fixedSize(int kind) {
        return FIXED_SIZE[kind];
    }

    // ---- fields ------------------------------------------------------------------------------------------
    // Where each field the replay reads starts in its header; u16/u24/u32 read at header start + offset.

    static final int IPV4_ID = 4;
    static final int IPV4_SOURCE = 12;
    static final int IPV4_DESTINATION = 16;
    static final int UDP_SOURCE_PORT = 0;
    static final int UDP_LENGTH = 4;
    static final int GRH_PAYLOAD_LENGTH = 4;
    static final int LRH_DLID = 2;
    static final int LRH_SLID = 6;
    /** The 24-bit fields are read as the low three bytes of the 32-bit word ending with them. */
    static final int BTH_DEST_QP = 4;
    static final int BTH_PSN = 8;
    static final int AETH_SYNDROME = 0;
    static final int AETH_MSN = 0;
    static final int RETH_VA = 0;
    static final int RETH_R_KEY = 8;
    static final int RETH_DMA_LENGTH = 12;
    static final int DETH_SOURCE_QP = 4;
    static final int XRCETH_SRQ = 0;
    static final int MAD_CLASS = 1;
    static final int MAD_ATTRIBUTE = 16;
    /** infiniband.immdt.value and infiniband.ieth.r_key: the whole 4-byte header. */
    static final int WHOLE_WORD = 0;

    static int u8(ByteBuffer b, int at) {
        return b.get(at) & 0xFF;
    }

    static int u16(ByteBuffer b, int at) {
        return b.getShort(at) & 0xFFFF;
    }

    /** The low 24 bits of the big-endian word at {@code at}: a 24-bit field in its last three bytes. */
    static int u24(ByteBuffer b, int at) {
        return b.getInt(at) & 0xFFFFFF;
    }

    static long u32(ByteBuffer b, int at) {
        return b.getInt(at) & 0xFFFFFFFFL;
    }

    static long u64(ByteBuffer b, int at) {
        return b.getLong(at);
    }

    /** ECN, the low two bits of ip.dsfield (offset 1). */
    static int ipv4Ecn(ByteBuffer b, int at) {
        return b.get(at + 1) & 3;
    }

    /** infiniband.lrh.pktlen (offset 4, 2 bytes, mask 0x07FF): 4-byte words from LRH through ICRC. */
    static int lrhPacketLength(ByteBuffer b, int at) {
        return b.getShort(at + 4) & 0x07FF;
    }

    /** infiniband.grh.tclass (offset 0, 2 bytes, mask 0x0FF0). */
    static int grhTrafficClass(ByteBuffer b, int at) {
        return (b.getShort(at) & 0x0FF0) >>> 4;
    }

    /** infiniband.bth.a (offset 8, bit 0x80). */
    static boolean bthAckRequest(ByteBuffer b, int at) {
        return (b.get(at + 8) & 0x80) != 0;
    }
}

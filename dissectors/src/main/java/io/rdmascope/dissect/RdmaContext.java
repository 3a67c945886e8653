package io.rdmascope.dissect;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * What the InfiniBand dissector learned about the RDMA part of a frame, kept as plain ints so the
 * replay engine and the CRC checks read them without walking layers again. Reset for every frame.
 * Offsets are frame offsets; -1 means absent.
 */
public final class RdmaContext {
    /** How the IB transport reached the wire; it decides what the ICRC covers (IBTA 7.8.1, Annex A16/A17). */
    public enum Encapsulation { NONE, ROCE_V2_IPV4, ROCE_V2_IPV6, ROCE_V1, INFINIBAND }

    public Encapsulation encapsulation = Encapsulation.NONE;
    /** First byte the ICRC covers: IP header (RoCEv2), GRH (RoCEv1) or LRH (native IB). */
    public int coverageStart = -1;
    /** Length of the IP header (RoCEv2) or LRH+GRH (native) at {@link #coverageStart}. */
    public int networkHeaderLength;
    /** Whether a GRH follows the LRH (native IB). */
    public boolean hasGrh;
    public int bthStart = -1;
    public int bthLayer = -1;
    public int opcode = -1;
    /**
     * Whether the BTH opcode (0x40–0x5F) was read as Mellanox Dynamically Connected rather than RD, and
     * if so whether in its connect form (with a DCCETH): the opcode byte alone does not say (docs/dc.md).
     */
    public boolean dynamicallyConnected;
    public boolean dcConnect;
    public int payloadStart = -1;
    public int payloadLength;
    public int padCount;
    public int icrcOffset = -1;
    public int vcrcOffset = -1;

    // Lazily computed checks: cost is paid only by frames whose CRC someone asks for.
    private boolean icrcDone;
    private long icrcComputed;
    private boolean vcrcDone;
    private int vcrcComputed;

    // Scratch reused across frames; the CRC engines are per dissection, never shared between threads.
    final byte[] scratch = new byte[128];
    final CRC32 crc32 = new CRC32();
    private ByteBuffer view;
    private ByteBuffer viewSource;

    void reset() {
        encapsulation = Encapsulation.NONE;
        coverageStart = -1;
        networkHeaderLength = 0;
        hasGrh = false;
        bthStart = -1;
        bthLayer = -1;
        opcode = -1;
        dynamicallyConnected = false;
        dcConnect = false;
        payloadStart = -1;
        payloadLength = 0;
        padCount = 0;
        icrcOffset = -1;
        vcrcOffset = -1;
        icrcDone = false;
        vcrcDone = false;
    }

    public boolean isRdma() {
        return bthStart >= 0;
    }

    /** The scratch array for building masked CRC input. */
    public byte[] scratch() {
        return scratch;
    }

    /** Bytes of ICRC input (masked headers and payload) that {@link #icrcInput()} holds. */
    public static final int ICRC_INPUT_BYTES = 1024;

    private byte[] icrcInput;

    /**
     * A reused array for a whole frame's ICRC input, masked headers followed by the payload, so the CRC runs
     * in one call: the CRC-32 intrinsic works byte by byte on its first tens of bytes (it folds 16 at a time
     * only once aligned and long enough), so two calls, headers then payload, cost about 40 ns a frame more
     * than one over both (issue 18, docs/performance.md). Made on first use: only dissections that check an
     * ICRC pay its kilobyte.
     */
    public byte[] icrcInput() {
        if (icrcInput == null) {
            icrcInput = new byte[ICRC_INPUT_BYTES];
        }
        return icrcInput;
    }

    public CRC32 crc32() {
        return crc32;
    }

    /** A private view of {@code source} whose position and limit may be moved freely. */
    public ByteBuffer view(ByteBuffer source) {
        if (viewSource != source) {
            view = source.duplicate();
            viewSource = source;
        }
        return view;
    }

    public boolean icrcDone() {
        return icrcDone;
    }

    public long icrcComputed() {
        return icrcComputed;
    }

    public void setIcrcComputed(long value) {
        icrcComputed = value;
        icrcDone = true;
    }

    public boolean vcrcDone() {
        return vcrcDone;
    }

    public int vcrcComputed() {
        return vcrcComputed;
    }

    public void setVcrcComputed(int value) {
        vcrcComputed = value;
        vcrcDone = true;
    }
}

package io.rdmascope.text;

import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Just enough pcap and pcapng for the tshark comparisons of the dissectors' tests: the capture module's
 * readers sit above the dissectors in the module graph, so the tests here cannot use them. Frames
 * are numbered from 1 as tshark numbers them; timestamps are not kept (the Info column does not
 * read them).
 */
public final class PcapFixtures {
    private static final int PCAPNG_SHB = 0x0A0D0D0A;
    private static final int PCAPNG_IDB = 1;
    private static final int PCAPNG_SPB = 3;
    private static final int PCAPNG_EPB = 6;

    private PcapFixtures() {
    }

    public static List<Frame> read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int magic = b.getInt(0);
        return magic == PCAPNG_SHB ? readPcapng(bytes) : readPcap(bytes);
    }

    private static List<Frame> readPcap(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        int magic = b.getInt(0);
        if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
            b.order(ByteOrder.LITTLE_ENDIAN);
        } else if (magic != 0xa1b2c3d4 && magic != 0xa1b23c4d) {
            throw new IllegalArgumentException("not a pcap file: magic " + Integer.toHexString(magic));
        }
        int linkType = b.getInt(20) & 0x0FFFFFFF;
        List<Frame> out = new ArrayList<>();
        int at = 24;
        while (at + 16 <= file.length) {
            int captured = b.getInt(at + 8);
            int wireLength = b.getInt(at + 12);
            out.add(frame(out.size() + 1, file, at + 16, captured, wireLength, linkType));
            at += 16 + captured;
        }
        return out;
    }

    private static List<Frame> readPcapng(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        List<Integer> linkTypes = new ArrayList<>();
        List<Frame> out = new ArrayList<>();
        int at = 0;
        while (at + 12 <= file.length) {
            int type = b.getInt(at); // the section header's type reads the same in either order
            if (type == PCAPNG_SHB) {
                // Its byte-order magic decides how the section is read.
                b.order(ByteOrder.BIG_ENDIAN);
                b.order(b.getInt(at + 8) == 0x1A2B3C4D ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
                linkTypes.clear();
            }
            int length = b.getInt(at + 4);
            if (type == PCAPNG_IDB) {
                linkTypes.add(b.getShort(at + 8) & 0xFFFF);
            } else if (type == PCAPNG_EPB) {
                int linkType = linkTypes.get(b.getInt(at + 8));
                out.add(frame(out.size() + 1, file, at + 28, b.getInt(at + 20), b.getInt(at + 24), linkType));
            } else if (type == PCAPNG_SPB) {
                int wireLength = b.getInt(at + 8);
                out.add(frame(out.size() + 1, file, at + 12, Math.min(wireLength, length - 16), wireLength,
                        linkTypes.get(0)));
            }
            at += length;
        }
        return out;
    }

    private static Frame frame(long number, byte[] file, int start, int captured, int wireLength, int linkType) {
        byte[] data = Arrays.copyOfRange(file, start, start + captured);
        return new Frame(number, 0, captured, wireLength, linkType, 0, ByteBuffer.wrap(data), 0);
    }

    /** Writes {@code frames} as a little-endian microsecond pcap of one link type, one second apart. */
    public static void writePcap(Path file, int linkType, List<byte[]> frames) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            header.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535)
                    .putInt(linkType);
            out.write(header.array());
            int second = 0;
            for (byte[] f : frames) {
                ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
                record.putInt(second++).putInt(0).putInt(f.length).putInt(f.length);
                out.write(record.array());
                out.write(f);
            }
        }
    }
}

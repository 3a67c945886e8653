package io.rdmascope.filter;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the sample captures for these tests (the capture module sits above the dissectors, so its
 * readers are out of reach): classic pcap in either byte order and resolution, pcapng with
 * per-interface timestamp resolution. Timestamps are kept, since frame.time_* filters read them.
 */
final class Captures {
    private static final Map<Path, List<Frame>> CACHE = new HashMap<>();

    private Captures() {
    }

    /** The repository's sample-pcaps folder, whichever module folder the tests run in. */
    static Path samples() {
        String root = System.getProperty("rdmascope.root");
        Path base = root != null ? Path.of(root) : Path.of("").toAbsolutePath();
        while (base != null && !Files.isDirectory(base.resolve("sample-pcaps/cases"))) {
            base = base.getParent();
        }
        if (base == null) {
            throw new IllegalStateException("sample-pcaps not found above " + Path.of("").toAbsolutePath());
        }
        return base.resolve("sample-pcaps");
    }

    /** A committed case's capture: {@code cases/NAME/NAME.pcapng} (or .pcap). */
    static Path sample(String name) {
        if (name.endsWith(".pcapng") || name.endsWith(".pcap")) {
            return samples().resolve(name);
        }
        Path folder = samples().resolve("cases").resolve(name);
        Path ng = folder.resolve(name + ".pcapng");
        return Files.exists(ng) ? ng : folder.resolve(name + ".pcap");
    }

    static synchronized List<Frame> read(Path file) throws IOException {
        List<Frame> cached = CACHE.get(file);
        if (cached == null) {
            byte[] bytes = Files.readAllBytes(file);
            cached = ByteBuffer.wrap(bytes).getInt(0) == 0x0A0D0D0A ? pcapng(bytes) : pcap(bytes);
            CACHE.put(file, cached);
        }
        return cached;
    }

    /** Numbers of the frames of {@code file} that {@code filter} passes, dissecting every frame in order. */
    static List<Long> matching(Path file, DisplayFilter filter) throws IOException {
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        List<Long> out = new ArrayList<>();
        for (Frame f : read(file)) {
            chain.dissect(f, d);
            if (filter.matches(d)) {
                out.add(f.number());
            }
        }
        return out;
    }

    static List<Long> matching(Path file, String filter) throws IOException, FilterException {
        return matching(file, DisplayFilter.compile(filter));
    }

    private static List<Frame> pcap(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        int magic = b.getInt(0);
        boolean nanos = magic == 0xa1b23c4d || magic == 0x4d3cb2a1;
        if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
            b.order(ByteOrder.LITTLE_ENDIAN);
        }
        int linkType = b.getInt(20) & 0x0FFFFFFF;
        List<Frame> out = new ArrayList<>();
        ByteBuffer shared = ByteBuffer.wrap(file).asReadOnlyBuffer();
        int at = 24;
        while (at + 16 <= file.length) {
            long seconds = b.getInt(at) & 0xFFFFFFFFL;
            long fraction = b.getInt(at + 4) & 0xFFFFFFFFL;
            int captured = b.getInt(at + 8);
            int wire = b.getInt(at + 12);
            long time = seconds * 1_000_000_000L + (nanos ? fraction : fraction * 1000);
            out.add(new Frame(out.size() + 1, time, captured, wire, linkType, 0, shared, at + 16));
            at += 16 + captured;
        }
        return out;
    }

    private static List<Frame> pcapng(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        ByteBuffer shared = ByteBuffer.wrap(file).asReadOnlyBuffer();
        List<int[]> interfaces = new ArrayList<>(); // {link type, resolution exponent (10^-x or -(2^-x))}
        List<Frame> out = new ArrayList<>();
        int at = 0;
        while (at + 12 <= file.length) {
            int type = b.getInt(at);
            if (type == 0x0A0D0D0A) {
                b.order(ByteOrder.BIG_ENDIAN);
                b.order(b.getInt(at + 8) == 0x1A2B3C4D ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
                interfaces.clear();
            }
            int length = b.getInt(at + 4);
            if (type == 1) {
                int resolution = 6;
                int opt = at + 16;
                while (opt + 4 <= at + length - 4) {
                    int code = b.getShort(opt) & 0xFFFF;
                    int len = b.getShort(opt + 2) & 0xFFFF;
                    if (code == 0) {
                        break;
                    }
                    if (code == 9 && len >= 1) {
                        int v = b.get(opt + 4) & 0xFF;
                        resolution = (v & 0x80) == 0 ? v : -(v & 0x7F);
                    }
                    opt += 4 + ((len + 3) & ~3);
                }
                interfaces.add(new int[]{b.getShort(at + 8) & 0xFFFF, resolution});
            } else if (type == 6) {
                int[] itf = interfaces.get(b.getInt(at + 8));
                long ts = ((b.getInt(at + 12) & 0xFFFFFFFFL) << 32) | (b.getInt(at + 16) & 0xFFFFFFFFL);
                out.add(new Frame(out.size() + 1, nanos(ts, itf[1]), b.getInt(at + 20), b.getInt(at + 24), itf[0],
                        b.getInt(at + 8), shared, at + 28));
            } else if (type == 3) {
                int wire = b.getInt(at + 8);
                out.add(new Frame(out.size() + 1, 0, Math.min(wire, length - 16), wire, interfaces.get(0)[0], 0,
                        shared, at + 12));
            }
            at += length;
        }
        return out;
    }

    private static long nanos(long ts, int resolution) {
        if (resolution >= 0) {
            return BigInteger.valueOf(ts).multiply(BigInteger.TEN.pow(9))
                    .divide(BigInteger.TEN.pow(resolution)).longValueExact();
        }
        return BigInteger.valueOf(ts).multiply(BigInteger.TEN.pow(9)).shiftRight(-resolution).longValueExact();
    }
}

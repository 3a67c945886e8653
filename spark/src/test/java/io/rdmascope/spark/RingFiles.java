package io.rdmascope.spark;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapWriter;
import io.rdmascope.capture.PcapngWriter;
import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

/**
 * Splits a capture into ring files the way a capture tool rotates them: consecutive runs of frames, one
 * file after another, named so that name order is capture order. A vantage directory of them is what the
 * job reads; the original capture is the single-machine reference.
 */
final class RingFiles {
    /** One ring file: its path under the input directory and the number its first frame has in the whole capture. */
    record Ring(String name, long firstFrame) {
    }

    private RingFiles() {
    }

    /**
     * Writes {@code source}'s frames into {@code rings} files in {@code inputRoot/vantage/}; pcap stays pcap
     * (nanosecond), anything else becomes pcapng with the same interfaces. {@code gzipLast} compresses the last ring.
     */
    static List<Ring> split(Path source, Path inputRoot, String vantage, int rings, boolean gzipLast) throws IOException {
        List<Frame> frames = new ArrayList<>();
        TreeMap<Integer, Integer> linkTypes = new TreeMap<>();
        try (PacketSource in = CaptureFiles.open(source)) {
            Frame f;
            while ((f = in.next()) != null) {
                byte[] copy = f.toByteArray();
                frames.add(new Frame(f.number(), f.timeNanos(), copy.length, f.wireLength(), f.linkType(),
                        f.interfaceId(), java.nio.ByteBuffer.wrap(copy), 0));
                linkTypes.putIfAbsent(f.interfaceId(), f.linkType());
            }
        }
        boolean pcap = source.getFileName().toString().endsWith(".pcap") && linkTypes.size() == 1;
        Path dir = Files.createDirectories(inputRoot.resolve(vantage));
        List<Ring> out = new ArrayList<>();
        int n = frames.size();
        for (int r = 0; r < rings; r++) {
            int from = (int) ((long) n * r / rings);
            int to = (int) ((long) n * (r + 1) / rings);
            String name = String.format("ring_%05d.%s%s", r + 1, pcap ? "pcap" : "pcapng",
                    gzipLast && r == rings - 1 ? ".gz" : "");
            Path file = dir.resolve(name);
            try (OutputStream raw = Files.newOutputStream(file);
                 OutputStream os = name.endsWith(".gz") ? new GZIPOutputStream(raw) : raw) {
                if (pcap) {
                    PcapWriter w = new PcapWriter(os, linkTypes.firstEntry().getValue(), PcapWriter.DEFAULT_SNAPLEN, true);
                    for (Frame f : frames.subList(from, to)) {
                        w.write(f);
                    }
                    w.flush();
                } else {
                    PcapngWriter w = new PcapngWriter(os, null, null, "rdmascope test");
                    int first = linkTypes.firstEntry().getValue();
                    for (int i = 0; i <= linkTypes.lastKey(); i++) {
                        w.addInterface(linkTypes.getOrDefault(i, first), PcapWriter.DEFAULT_SNAPLEN, null, null, null, 9);
                    }
                    for (Frame f : frames.subList(from, to)) {
                        w.write(f.interfaceId(), f);
                    }
                    w.flush();
                }
            }
            out.add(new Ring(vantage + "/" + name, from + 1L));
        }
        return out;
    }

    /**
     * One Ethernet pcap of {@code first}'s frames followed by {@code second}'s, all on one interface, the
     * second's timestamps moved to follow the first's and its IPv4 addresses rewritten by {@code readdress}
     * (last octet to last octet): a capture where one sender talks to peers in several host pairs.
     */
    static void concatenate(Path first, Path second, Map<Integer, Integer> readdress, Path out) throws IOException {
        try (PcapWriter w = PcapWriter.create(out, 1, PcapWriter.DEFAULT_SNAPLEN, true)) {
            long end = 0;
            try (PacketSource in = CaptureFiles.open(first)) {
                Frame f;
                while ((f = in.next()) != null) {
                    w.write(f);
                    end = Math.max(end, f.timeNanos());
                }
            }
            long shift = Long.MIN_VALUE;
            try (PacketSource in = CaptureFiles.open(second)) {
                Frame f;
                while ((f = in.next()) != null) {
                    if (shift == Long.MIN_VALUE) {
                        shift = end + 1_000_000 - f.timeNanos();
                    }
                    byte[] b = f.toByteArray();
                    if (b.length >= 34 && b[12] == 0x08 && b[13] == 0x00) { // Ethernet, IPv4: addresses at 26 and 30
                        b[29] = (byte) (int) readdress.getOrDefault(b[29] & 0xFF, b[29] & 0xFF);
                        b[33] = (byte) (int) readdress.getOrDefault(b[33] & 0xFF, b[33] & 0xFF);
                    }
                    w.write(f.timeNanos() + shift, b, f.wireLength());
                }
            }
        }
    }

    /** Puts {@code source} into {@code inputRoot/vantage/} as it is (a link: the file is never copied). */
    static List<Ring> asIs(Path source, Path inputRoot, String vantage) throws IOException {
        Path dir = Files.createDirectories(inputRoot.resolve(vantage));
        Files.createSymbolicLink(dir.resolve(source.getFileName()), source.toAbsolutePath());
        return List.of(new Ring(vantage + "/" + source.getFileName(), 1));
    }
}

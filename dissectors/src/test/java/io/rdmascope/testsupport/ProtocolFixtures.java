package io.rdmascope.testsupport;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;
import io.rdmascope.text.PcapFixtures;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * What the tests of a protocol package (docs/adding-a-protocol.md §5) share: a capture dissected
 * frame by frame with one dissection's state, a field's text as {@code -T fields} prints it, the
 * field names tshark 4.0 declares too, and a scan of every real capture and sample case for frames
 * a protocol claims.
 */
public final class ProtocolFixtures {
    /** How many frames a scan read and the first frames it found claimed ("file frame N"). */
    public record Scan(int frames, List<String> claimed) {
    }

    private ProtocolFixtures() {
    }

    /** Every frame of {@code file}, each with a fresh layer list over one dissection's cross-frame state. */
    public static List<Dissection> dissectAll(Path file) throws IOException {
        return dissectAll(file, DissectorChain.standard());
    }

    /** As {@link #dissectAll(Path)}, with {@code chain} (one with {@code --decode-as} rules, say). */
    public static List<Dissection> dissectAll(Path file, DissectorChain chain) throws IOException {
        return eachFrame(file, chain, d -> d);
    }

    /**
     * {@code read} applied to each frame right after it is dissected. What the stream decoders show of
     * a frame (iWARP's PDUs, hence its columns) lives in state the next frame overwrites, so text
     * that reads it must be taken then, as the CLI does.
     */
    public static <T> List<T> eachFrame(Path file, DissectorChain chain, Function<Dissection, T> read)
            throws IOException {
        Dissection state = new Dissection();
        List<T> out = new ArrayList<>();
        for (Frame f : PcapFixtures.read(file)) {
            Dissection d = new Dissection();
            d.continueFrom(state);
            chain.dissect(f, d);
            out.add(read.apply(d));
            state = d;
        }
        return out;
    }

    /** The BTH opcode of a UD SEND Only (IBTA table 38), as {@code -T fields} prints it: how CM MADs travel. */
    private static final String UD_SEND_ONLY = "100";

    /**
     * Writes {@code capture} without its CM frames (every UD SEND, which on the storage cases is the CM
     * exchange) to {@code copy}, a pcap of the same link type, and returns the original number of each
     * frame kept, in order: what a {@code --decode-as} test needs to compare the copy with the whole.
     */
    public static List<Integer> withoutCm(Path capture, Path copy) throws IOException {
        List<Frame> frames = PcapFixtures.read(capture);
        List<Dissection> dissected = dissectAll(capture);
        List<byte[]> kept = new ArrayList<>();
        List<Integer> original = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            if (!value(dissected.get(i), "infiniband.bth.opcode").equals(UD_SEND_ONLY)) {
                Frame f = frames.get(i);
                byte[] bytes = new byte[f.capturedLength()];
                f.buffer().get(f.offset(), bytes);
                kept.add(bytes);
                original.add(i + 1);
            }
        }
        PcapFixtures.writePcap(copy, frames.get(0).linkType(), kept);
        return original;
    }

    /** Field {@code name}'s occurrences in {@code d}, comma-joined as {@code tshark -T fields} prints them. */
    public static String value(Dissection d, String name) {
        AsciiSink s = new AsciiSink(64);
        FieldText.appendOccurrences(s, FieldRegistry.standard().lookup(name), d, ',', FieldText.Occurrence.ALL);
        return s.toString();
    }

    /** Our field and header names starting with one of {@code prefixes} that tshark 4.0 also declares. */
    public static List<String> namesTsharkShares(String... prefixes) throws IOException, InterruptedException {
        Set<String> theirs = new TreeSet<>();
        for (String line : Tshark.run(List.of("-G", "fields")).split("\n")) {
            String[] cols = line.split("\t");
            if (cols.length > 2 && cols[0].equals("F")) {
                theirs.add(cols[2]);
            }
        }
        List<String> both = new ArrayList<>();
        for (FieldRegistry.Entry e : FieldRegistry.standard().entries()) {
            String n = e.abbrev();
            if ((e instanceof FieldRegistry.FieldEntry || e instanceof FieldRegistry.HeaderEntry)
                    && Stream.of(prefixes).anyMatch(n::startsWith) && theirs.contains(n)) {
                both.add(n);
            }
        }
        return both;
    }

    /**
     * Every committed sample case's capture but {@code carrier}'s: the case generated to carry the
     * protocol under test (issue 19's ulp_*), where its frames are claims on purpose. Every other
     * protocol's case stays in, so a false claim there still fails.
     */
    public static List<Path> sampleCaptures(String carrier) throws IOException {
        try (Stream<Path> cases = Files.walk(SharedFiles.sampleCases(), 2)) {
            return cases.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng"))
                    .filter(p -> !p.getParent().getFileName().toString().equals(carrier)).sorted().toList();
        }
    }

    /**
     * Dissects every capture of {@code ../shared/captures} and every sample case (skipping when the
     * shared folder is absent) and lists up to ten frames for which {@code claims} holds.
     */
    public static Scan scanForClaims(String carrier, Predicate<Dissection> claims) throws IOException {
        List<Path> files = new ArrayList<>(SharedFiles.allCaptures());
        files.addAll(sampleCaptures(carrier));
        int frames = 0;
        List<String> claimed = new ArrayList<>();
        for (Path file : files) {
            DissectorChain chain = DissectorChain.standard();
            Dissection d = new Dissection();
            for (Frame f : PcapFixtures.read(file)) {
                chain.dissect(f, d);
                frames++;
                if (claimed.size() < 10 && claims.test(d)) {
                    claimed.add(file.getFileName() + " frame " + f.number());
                }
            }
        }
        return new Scan(frames, claimed);
    }
}

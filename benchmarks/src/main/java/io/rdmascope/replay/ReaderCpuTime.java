package io.rdmascope.replay;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Thread CPU a frame of the reading thread's three steps before the replay: read and dissect, then also
 * {@link PacketFacts#read}, then also the CRC verdicts ({@link PacketFacts#computeCrcs}), one whole pass of
 * the capture each, in turn, for several rounds (the first is JIT warm-up). The differences of the columns
 * are the facts' and the ICRC's costs. Thread CPU rather than wall time, because the machine this project
 * is measured on is shared and loaded (docs/performance.md, "Issue 18: the reader's per-frame cost").
 *
 * <pre>
 * java -XX:+UseSerialGC -cp benchmarks/target/benchmarks.jar io.rdmascope.replay.ReaderCpuTime FILE [ROUNDS] [--shapes]
 * </pre>
 * {@code --shapes} also prints how many of the first 100,000 frames have each stack of layers.
 */
public final class ReaderCpuTime {
    private static final String[] STEPS = {"read+dissect", "+facts", "+facts+crc"};
    private static final int SHAPE_FRAMES = 100_000;

    private ReaderCpuTime() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: ReaderCpuTime FILE [ROUNDS] [--shapes]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        int rounds = args.length > 1 && !args[1].startsWith("--") ? Integer.parseInt(args[1]) : 4;
        boolean shapes = args[args.length - 1].equals("--shapes");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        DissectorChain chain = DissectorChain.standard();
        Map<String, Integer> shapeCounts = new TreeMap<>();
        for (int round = 0; round < rounds; round++) {
            StringBuilder line = new StringBuilder("round " + round + ":");
            for (int step = 0; step < STEPS.length; step++) {
                Dissection d = new Dissection();
                PacketFacts facts = new PacketFacts();
                long frames = 0;
                long kept = 0; // read from the facts, so that reading them cannot be optimised away
                long start = threads.getCurrentThreadCpuTime();
                try (PacketSource source = CaptureFiles.open(file)) {
                    for (Frame f = source.next(); f != null; f = source.next()) {
                        frames++;
                        chain.dissect(f, d);
                        if (step > 0 && facts.read(d)) {
                            kept += facts.psn;
                            if (step == 2) {
                                facts.computeCrcs(true);
                            }
                        }
                        if (shapes && round == 0 && step == 0 && frames <= SHAPE_FRAMES) {
                            shapeCounts.merge(shape(d), 1, Integer::sum);
                        }
                    }
                }
                long cpu = threads.getCurrentThreadCpuTime() - start;
                line.append(String.format(" %s %.1f ns", STEPS[step], cpu / (double) Math.max(1, frames)));
                if (kept == Long.MIN_VALUE) {
                    System.out.print(""); // never: keeps kept alive
                }
            }
            System.out.println(line);
        }
        shapeCounts.forEach((shape, count) -> System.out.println(count + " " + shape));
    }

    private static String shape(Dissection d) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < d.layerCount(); i++) {
            sb.append(i == 0 ? "" : " ").append(d.layerType(i).abbrev());
        }
        return sb.toString();
    }
}

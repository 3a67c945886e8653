package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.Correlation;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.replay.VantageInput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rdmascope correlate [NAME=]FILE [NAME=]FILE ...}: captures of the same traffic taken at several
 * vantage points as one account (issue 20): packets seen at several points, clock offsets with their
 * bounds, one-way delays, losses located between two points ({@link Correlation}).
 */
@Command(name = "correlate", sortOptions = false, description = {
        "Captures of the same traffic taken at several places (hosts, a switch mirror) as one account.",
        "",
        "Recognises the same RoCE/InfiniBand packet at every point that saw it (addresses, destination QP, PSN, "
                + "opcode and ICRC), estimates each pair's clock offset with the bound it is known within (or says it "
                + "cannot be known), gives one-way delays per direction with clocks corrected, and locates lost "
                + "packets between two points. Each input is a vantage point named by its file, or NAME=FILE."})
final class CorrelateCommand implements Callable<Integer> {
    @ParentCommand
    Main parent;

    @Option(names = "--json", description = "the account as JSON (a stable contract: docs/correlate.md)")
    boolean json;

    @Parameters(paramLabel = "[NAME=]FILE", arity = "2..*", description = "two captures or more, one per vantage point")
    List<String> inputs = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        List<VantageInput> points = Vantage.parse(inputs);
        List<String> names = points.stream().map(VantageInput::name).toList();
        List<Path> files = points.stream().map(VantageInput::file).toList();
        Correlation correlation = new Correlation(names);
        // The first point's capture is also replayed: its messages get their one-way delays.
        ReplayResult firstPoint = new ReplayResult();
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        for (int i = 0; i < files.size(); i++) {
            try (PacketSource source = CaptureFiles.open(files.get(i))) {
                Frame f;
                while ((f = source.next()) != null) {
                    chain.dissect(f, d);
                    correlation.accept(i, d);
                    if (i == 0) {
                        firstPoint.accept(d);
                    }
                }
            }
            d = new Dissection(); // each capture's stream state and time reference are its own
        }
        Correlation.Result r = correlation.result(firstPoint.finish().messages());
        OutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        if (json) {
            ReplayJson.writeValue(out, r);
        } else {
            PrintWriter w = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8));
            text(r, w);
            w.flush();
        }
        out.flush();
        return Main.EXIT_OK;
    }

    /** Nanoseconds as microseconds, exact to the nanosecond. */
    private static String us(long nanos) {
        return Text.micros(nanos) + " µs";
    }

    /** ", drift D ppm" when the second clock runs at another rate (the offset is then the first shared packet's). */
    private static String drift(Correlation.ClockOffset o) {
        return o.driftPpm() == 0 ? "" : String.format(java.util.Locale.ROOT, ", drift %+.3f ppm", o.driftPpm());
    }

    /**
     * Per conversation, the responder's think time (request in to response out, at the point nearest the
     * responder) and the fabric time beside it (the requester side's round trip of the same packets minus it).
     */
    private static void thinkTimes(Correlation.Result r, PrintWriter w) {
        w.println("Responder think time (request in to response out, nearest the responder; fabric: the round trip "
                + "minus it):");
        if (r.thinkTimes().isEmpty()) {
            w.println("  none: no point saw a message's request and its response");
        }
        // Per conversation, the points its think times were read at, in order of first use: one pass over the
        // messages (a filter per conversation read every message once per conversation).
        java.util.Map<String, java.util.Set<String>> points = new java.util.HashMap<>();
        for (Correlation.MessageDelay m : r.messages()) {
            Correlation.ThinkTime tt = m.thinkTime();
            if (tt != null) {
                points.computeIfAbsent(m.conversation(), k -> new java.util.LinkedHashSet<>())
                        .add(tt.requestAt().equals(tt.responseAt()) ? tt.requestAt()
                                : tt.requestAt() + "+" + tt.responseAt());
            }
        }
        for (Correlation.ConversationThinkTime t : r.thinkTimes()) {
            String where = String.join(", ", points.get(t.conversation()));
            w.printf("  conversation %s: %d messages, min %s, median %s, max %s%s, at %s; fabric %s%n",
                    t.conversation(), t.messages(), us(t.minNs()), us(t.medianNs()), us(t.maxNs()),
                    t.maxBoundNs() == 0 ? "" : " (± up to " + us(t.maxBoundNs()) + ")", where,
                    t.fabricMessages() == 0 ? "not measured" : t.fabricMessages() + " messages, min "
                            + us(t.fabricMinNs()) + ", median " + us(t.fabricMedianNs()) + ", max "
                            + us(t.fabricMaxNs()));
        }
    }

    private static void text(Correlation.Result r, PrintWriter w) {
        w.println("Vantage points:");
        for (int i = 0; i < r.vantagePoints().size(); i++) {
            w.printf("  %-20s %,d frames, %,d RDMA packets%n", r.vantagePoints().get(i), r.packets().frames().get(i),
                    r.packets().packets().get(i));
        }
        w.printf("Distinct packets: %,d, seen at two points or more: %,d%n", r.packets().distinct(),
                r.packets().multiSighted());
        w.println();
        w.println("Clock offsets (second point's clock minus the first's):");
        for (Correlation.ClockOffset o : r.clockOffsets()) {
            w.printf("  %s → %s: %s%n", o.from(), o.to(), o.offsetNs() == null ? "unknown: " + o.note()
                    : us(o.offsetNs()) + " ± " + us(o.boundNs()) + drift(o) + " (" + o.samples() + " packets)");
        }
        w.println();
        w.println("One-way delays (clocks corrected):");
        if (r.oneWayDelays().isEmpty()) {
            w.println("  none: no clock offset is known");
        }
        for (Correlation.Delay d : r.oneWayDelays()) {
            w.printf("  %s → %s, %s: %d packets, min %s, median %s, max %s%n", d.from(), d.to(), d.direction(),
                    d.packets(), us(d.minNs()), us(d.medianNs()), us(d.maxNs()));
        }
        w.println();
        long measured = r.messages().stream().filter(m -> !m.delays().isEmpty()).count();
        w.printf("Messages of %s: %,d, with one-way delays measured for %,d (--json lists them)%n",
                r.vantagePoints().get(0), r.messages().size(), measured);
        w.println();
        thinkTimes(r, w);
        w.println();
        w.printf("Lost between two points: %d%n", r.lost().stream().filter(Correlation.Loss::onTheWire).count());
        for (Correlation.Loss l : r.lost()) {
            w.printf("  %s QP 0x%06x PSN %d %s ×%d: %s (frame %d), %s%n", l.direction(), l.destQp(), l.psn(), l.opcode(),
                    l.copies(), l.onTheWire() ? "seen at " + l.lastSeenAt() : "missed by " + l.missingAt() + "'s capture; seen at "
                            + l.lastSeenAt(), l.lastSeenFrame(), l.onTheWire() ? "never at " + l.missingAt() : "downstream");
        }
    }
}

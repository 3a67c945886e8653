package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.samples.IwarpTsoScenario;
import io.rdmascope.samples.Trace;
import io.rdmascope.samples.VantageScenario;
import io.rdmascope.samples.VantageScenario.Point;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Correlation} keeps its split-segment tables and its think-time working space out of the way of traffic
 * that does not need them (made with the first piece found, the first iWARP segment, the first message asking;
 * docs/correlate.md, "Cost"). Whatever was asked before, and whenever, the account must be the one a correlation
 * asked once at the end gives: think time asked only at the end after an account without messages (as the union
 * asks), asked twice, asked half-way through the captures and again at the end, on RoCE runs (three points,
 * drift, responses a capture missed: think times read on two clocks) and on an iWARP run whose host saw its
 * segments before segmentation offload (wholes matched by their pieces). And each conversation's think-time
 * distribution is the one its messages' think times give, taken the plain way.
 */
class CorrelationAskedLateTest {
    private static final DissectorChain CHAIN = DissectorChain.standard();

    /** One point's frames, numbered as its capture would number them, minus those {@code kept} refuses. */
    private static List<Frame> frames(List<Trace.CapturedFrame> captured, java.util.function.LongPredicate kept) {
        List<Frame> out = new ArrayList<>();
        long number = 1;
        for (Trace.CapturedFrame f : captured) {
            if (kept.test(number)) {
                out.add(Frame.of(number, f.timeNanos(), f.linkType(), f.bytes()));
            }
            number++;
        }
        return out;
    }

    /**
     * Feeds frames [from, to) of one point through {@code d}, that point's dissection (its stream state carries
     * over from the frames fed before: an iWARP connection is followed from its MPA Request on).
     */
    private static void feed(Correlation c, int point, List<Frame> frames, int from, int to, Dissection d) {
        for (int i = from; i < to; i++) {
            CHAIN.dissect(frames.get(i), d);
            c.accept(point, d);
        }
    }

    /** Every point's frames, first point first. */
    private record Captures(List<String> names, List<List<Frame>> frames) {
        List<Message> firstPointMessages() {
            ReplayResult replay = new ReplayResult();
            Dissection d = new Dissection();
            for (Frame f : frames.get(0)) {
                CHAIN.dissect(f, d);
                replay.accept(d);
            }
            return replay.finish().messages();
        }

        /** Everything fed, then asked once, with the messages. */
        Correlation.Result askedOnce(List<Message> messages) {
            Correlation c = new Correlation(names);
            for (int p = 0; p < names.size(); p++) {
                feed(c, p, frames.get(p), 0, frames.get(p).size(), new Dissection());
            }
            return c.result(messages);
        }

        /**
         * The first half of every point's frames fed and an account without messages asked, then the second half,
         * then an account without messages (as the union asks) and two with them; returns the last.
         */
        List<Correlation.Result> askedOnTheWay(List<Message> messages) {
            Correlation c = new Correlation(names);
            List<Correlation.Result> out = new ArrayList<>();
            List<Dissection> dissections = new ArrayList<>();
            for (int p = 0; p < names.size(); p++) {
                dissections.add(new Dissection());
                feed(c, p, frames.get(p), 0, frames.get(p).size() / 2, dissections.get(p));
            }
            c.result();
            for (int p = 0; p < names.size(); p++) {
                feed(c, p, frames.get(p), frames.get(p).size() / 2, frames.get(p).size(), dissections.get(p));
            }
            out.add(withoutMessages(c.result()));
            out.add(c.result(messages));
            out.add(c.result(messages));
            return out;
        }
    }

    /** An account with its per-message parts emptied, to compare with one asked without messages. */
    private static Correlation.Result withoutMessages(Correlation.Result r) {
        return new Correlation.Result(r.vantagePoints(), r.packets(), r.clockOffsets(), r.oneWayDelays(), r.lost(),
                List.of(), List.of());
    }

    private static Captures vantage(long seed, boolean drift, boolean responderMissesEveryThirdFrame) {
        VantageScenario.Run run = VantageScenario.generate(seed, drift);
        List<String> names = new ArrayList<>();
        List<List<Frame>> frames = new ArrayList<>();
        for (Point p : Point.values()) {
            names.add(p.id());
            boolean thin = responderMissesEveryThirdFrame && p == Point.RESPONDER;
            frames.add(frames(run.captures().get(p), n -> !thin || n % 3 != 0));
        }
        return new Captures(names, frames);
    }

    private static Captures tso(long seed) {
        IwarpTsoScenario.Run run = IwarpTsoScenario.generate(seed);
        return new Captures(List.of("host", "switch"), List.of(frames(run.host(), n -> true),
                frames(run.atSwitch(), n -> true)));
    }

    private static void sameWhenAskedLate(Captures captures, String where) {
        List<Message> messages = captures.firstPointMessages();
        Correlation.Result once = captures.askedOnce(messages);
        assertTrue(once.messages().stream().filter(m -> m.thinkTime() != null).count() >= 5,
                where + ": think times to compare: " + once.messages().size());
        List<Correlation.Result> late = captures.askedOnTheWay(messages);
        assertEquals(withoutMessages(once), late.get(0), where + ": asked without messages");
        assertEquals(once, late.get(1), where + ": think time asked only at the end");
        assertEquals(once, late.get(2), where + ": asked a second time");
        distributionsAreTheMessages(once, where);
    }

    /** Each conversation's think and fabric figures, from its messages' think times the plain way. */
    private static void distributionsAreTheMessages(Correlation.Result r, String where) {
        Map<String, List<Correlation.ThinkTime>> byConversation = new LinkedHashMap<>();
        for (Correlation.MessageDelay m : r.messages()) {
            if (m.thinkTime() != null) {
                byConversation.computeIfAbsent(m.conversation(), k -> new ArrayList<>()).add(m.thinkTime());
            }
        }
        List<Correlation.ConversationThinkTime> expected = new ArrayList<>();
        byConversation.forEach((conversation, times) -> {
            long[] think = times.stream().mapToLong(Correlation.ThinkTime::ns).sorted().toArray();
            long[] fabric = times.stream().filter(t -> t.fabricNs() != null).mapToLong(Correlation.ThinkTime::fabricNs)
                    .sorted().toArray();
            long maxBound = times.stream().mapToLong(Correlation.ThinkTime::boundNs).max().orElseThrow();
            boolean any = fabric.length > 0;
            expected.add(new Correlation.ConversationThinkTime(conversation, think.length, think[0],
                    think[think.length / 2], think[think.length - 1], maxBound, fabric.length, any ? fabric[0] : null,
                    any ? fabric[fabric.length / 2] : null, any ? fabric[fabric.length - 1] : null));
        });
        assertEquals(expected, r.thinkTimes(), where);
    }

    @Test
    void roceAccountsAreTheSameWhenThinkTimeIsAskedOnlyAtTheEnd() {
        for (long seed : new long[]{1, 2, 3}) {
            sameWhenAskedLate(vantage(seed, false, false), "seed " + seed);
            sameWhenAskedLate(vantage(seed, true, false), "seed " + seed + " with drift");
        }
    }

    @Test
    void thinkTimesReadOnTwoClocksAreTheSameWhenAskedOnlyAtTheEnd() {
        for (long seed : new long[]{1, 2, 3}) {
            Captures captures = vantage(seed, false, true);
            String where = "seed " + seed + ", the responder missing every third frame";
            sameWhenAskedLate(captures, where);
            // The case is the one meant: some think time was read at two points, with the offset's bound.
            Correlation.Result r = captures.askedOnce(captures.firstPointMessages());
            assertTrue(r.messages().stream().anyMatch(m -> m.thinkTime() != null && m.thinkTime().boundNs() > 0),
                    where);
            assertTrue(r.thinkTimes().stream().anyMatch(t -> t.maxBoundNs() > 0), where);
        }
    }

    @Test
    void splitSegmentAccountsAreTheSameWhenAskedHalfWayAndAtTheEnd() {
        for (long seed : new long[]{1, 2, 3, 4}) {
            Captures captures = tso(seed);
            String where = "seed " + seed;
            sameWhenAskedLate(captures, where);
            // The case is the one meant: wholes matched by their pieces (the switch's frames outnumber its packets).
            Correlation.Result r = captures.askedOnce(captures.firstPointMessages());
            assertNotEquals(r.packets().packets().get(1), (long) r.packets().distinct(), where + ": " + r.packets());
            assertEquals(r.packets().packets().get(0), r.packets().multiSighted(), where + ": " + r.packets());
        }
    }
}

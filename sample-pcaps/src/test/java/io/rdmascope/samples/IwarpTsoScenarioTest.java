package io.rdmascope.samples;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link IwarpTsoScenario}: the host's wholes carry exactly their pieces' bytes, and the truth's times are the stamps. */
class IwarpTsoScenarioTest {
    private static final int TCP_PAYLOAD = 14 + 20 + 20;

    @Test
    void eachWholeIsItsPiecesJoinedAndEveryStampIsTheTruthsTime() {
        for (long seed = 1; seed <= 4; seed++) {
            IwarpTsoScenario.Run run = IwarpTsoScenario.generate(seed);
            IwarpTsoScenario.Truth t = run.truth();
            assertEquals(run.host().size(), t.segments().size());
            assertEquals(run.atSwitch().size(), t.segments().stream().mapToInt(s -> s.switchFrames().size()).sum());
            int wholes = 0;
            int largest = 0;
            for (IwarpTsoScenario.Segment s : t.segments()) {
                Trace.CapturedFrame host = run.host().get(s.hostFrame() - 1);
                ByteArrayOutputStream joined = new ByteArrayOutputStream();
                for (int f : s.switchFrames()) {
                    byte[] piece = run.atSwitch().get(f - 1).bytes();
                    joined.write(piece, TCP_PAYLOAD, piece.length - TCP_PAYLOAD);
                }
                byte[] whole = host.bytes();
                assertArrayEquals(joined.toByteArray(), Arrays.copyOfRange(whole, TCP_PAYLOAD, whole.length), s.toString());
                assertEquals(s.length(), whole.length - TCP_PAYLOAD);
                assertTrue(s.length() <= 65_000, s.toString());
                assertEquals(s.hostTrueNs(), host.timeNanos(), "the host's clock is the reference");
                assertEquals(s.switchTrueNs() + t.switchClockOffsetNs(),
                        run.atSwitch().get(s.switchFrames().get(0) - 1).timeNanos());
                long delay = s.fromHost() ? t.toSwitchNs() : t.toHostNs();
                long firstByte = s.fromHost() ? s.firstByteDelayNs() : -s.firstByteDelayNs();
                // The link's delay, queueing on top (0–150 ns, more behind a segment ahead of it on the link).
                assertTrue(firstByte >= delay && firstByte < delay + 1_000, s.toString());
                if (s.switchFrames().size() > 1) {
                    assertTrue(s.fromHost(), "only the host's own segments are cut by its NIC");
                    wholes++;
                    largest = Math.max(largest, s.switchFrames().size());
                }
            }
            assertEquals(t.wholes(), wholes);
            assertTrue(wholes >= 4 && largest >= 40, wholes + " wholes, the largest in " + largest + " pieces");
        }
    }

    @Test
    void aSeedPlaysTheSameRun() {
        IwarpTsoScenario.Run a = IwarpTsoScenario.generate(5);
        IwarpTsoScenario.Run b = IwarpTsoScenario.generate(5);
        assertEquals(a.truth(), b.truth());
        List<Trace.CapturedFrame> x = a.atSwitch();
        List<Trace.CapturedFrame> y = b.atSwitch();
        for (int i = 0; i < x.size(); i++) {
            assertArrayEquals(x.get(i).bytes(), y.get(i).bytes());
        }
    }
}

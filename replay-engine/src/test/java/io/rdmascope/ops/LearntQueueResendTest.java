package io.rdmascope.ops;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A queue learnt through {@code -d} without CM is reported with its requester's QP unknown until the
 * responder's traffic shows that QP, then with it: a transport resend of a command sent before that
 * moment and seen after it is still the same command, counted once (issue 19's follow-up). Built from
 * the generated cases without their CM frames: the queue's first command, the responder's first message
 * (its response, or the RDMA transfer of the command's data, which teaches which QP is the requester's),
 * then the command's resend (same bytes, same PSN).
 */
class LearntQueueResendTest {
    private static final int RC_SEND_ONLY = 0x04;
    private static final int RC_ACKNOWLEDGE = 0x11;
    /** RoCEv2 over IPv4 without VLAN, as the cases are: the BTH at byte 42, its destination QP at 47. */
    private static final int BTH = 42;

    @TempDir
    Path dir;

    @Test
    void aResendStraddlingTheLearningOfItsQueueIsCountedOnce() throws IOException {
        int straddling = 0;
        for (String[] c : List.of(new String[] {"ulp_nvmeof", "nvme-rdma"}, new String[] {"ulp_iser", "iser"},
                new String[] {"ulp_rpcrdma", "rpcordma"})) {
            Path copy = dir.resolve(c[0] + "_without_cm.pcap");
            ProtocolFixtures.withoutCm(SharedFiles.sampleCases().resolve(c[0]).resolve(c[0] + ".pcapng"), copy);
            DissectorChain chain = DissectorChain.standard().withDecodeAs(List.of(DecodeAs.parse("infiniband," + c[1])));
            List<Frame> all = ClaimedFramesTest.read(copy);
            // From the first command exchange on, and from the second (its first command, ACK, response, ACK
            // left out): a command answered at once, and one whose data moves before its response.
            for (int skip : new int[] {0, 4}) {
                List<Frame> once = renumbered(all.subList(skip, all.size()));
                int command = firstCommand(once);
                int moment = responderFirst(once, command);
                List<Frame> twice = new ArrayList<>();
                List<Long> original = new ArrayList<>(List.of(0L)); // twice's frame number to once's
                for (int i = 0; i < once.size(); i++) {
                    twice.add(renumber(once.get(i), twice.size() + 1));
                    original.add(once.get(i).number());
                    if (i == moment) {
                        twice.add(renumber(once.get(command), twice.size() + 1));
                        original.add(once.get(command).number());
                    }
                }
                String what = c[0] + " from frame " + (skip + 1) + ", resend after frame " + (moment + 1);
                List<String> expected = noticed(once, chain, n -> n);
                assertTrue(expected.stream().anyMatch(l -> l.startsWith("op ")), what + ": " + expected);
                assertEquals(expected, noticed(twice, chain, n -> original.get((int) n)), what);
                straddling++;
            }
        }
        assertEquals(6, straddling);
    }

    /** What the rules notice and the operations' statuses, frames mapped by {@code frameOf}. */
    private static List<String> noticed(List<Frame> frames, DissectorChain chain,
                                        java.util.function.LongUnaryOperator frameOf) {
        OperationRules rules = new OperationRules();
        List<String> out = new ArrayList<>();
        OperationTracker tracker = rules.tracker(o -> out.add("op " + frameOf.applyAsLong(o.commandFrame()) + " "
                + o.status() + " " + o.reason() + " " + o.queue()));
        Dissection d = new Dissection();
        for (Frame f : frames) {
            chain.dissect(f, d);
            tracker.accept(d);
        }
        tracker.finish();
        rules.observations(new ReplayResult().finish())
                .forEach(o -> out.add(frameOf.applyAsLong(o.frame()) + " " + o.kind() + " "
                        + ((Observation.Ulp) o).queue() + " " + ((Observation.Ulp) o).id()));
        out.sort(null);
        return out;
    }

    /** The first RC SEND Only: in every case the requester speaks first once CM is gone. */
    private static int firstCommand(List<Frame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            if (opcode(frames.get(i)) == RC_SEND_ONLY) {
                return i;
            }
        }
        throw new AssertionError("no SEND");
    }

    /** The first frame after {@code command} from the responder that is not a bare ACK. */
    private static int responderFirst(List<Frame> frames, int command) {
        int requesterToResponder = destQp(frames.get(command));
        for (int i = command + 1; i < frames.size(); i++) {
            if (destQp(frames.get(i)) != requesterToResponder && opcode(frames.get(i)) != RC_ACKNOWLEDGE) {
                return i;
            }
        }
        throw new AssertionError("the responder never speaks");
    }

    private static int opcode(Frame f) {
        return f.buffer().get(f.offset() + BTH) & 0xFF;
    }

    private static int destQp(Frame f) {
        int at = f.offset() + BTH + 5;
        return (f.buffer().get(at) & 0xFF) << 16 | (f.buffer().get(at + 1) & 0xFF) << 8 | f.buffer().get(at + 2) & 0xFF;
    }

    private static List<Frame> renumbered(List<Frame> frames) {
        List<Frame> out = new ArrayList<>(frames.size());
        for (Frame f : frames) {
            out.add(renumber(f, out.size() + 1));
        }
        return out;
    }

    private static Frame renumber(Frame f, long number) {
        return Frame.of(number, f.timeNanos(), f.linkType(), f.toByteArray());
    }
}

package io.rdmascope.replay.iwarp;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.MessageKind;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.replay.Transport;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The iWARP replay beyond the scenario truths: the real capture, damaged input, passes repeated. */
class IwarpReplayTest {

    private static List<Frame> read(Path capture) throws IOException {
        List<Frame> frames = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(capture)) {
            Frame f;
            while ((f = source.next()) != null) {
                byte[] copy = f.toByteArray();
                frames.add(new Frame(f.number(), f.timeNanos(), copy.length, f.wireLength(), f.linkType(), 0,
                        ByteBuffer.wrap(copy), 0));
            }
        }
        return frames;
    }

    private static ReplayResult replay(List<Frame> frames, Dissection d) {
        ReplayResult r = new ReplayResult();
        DissectorChain chain = DissectorChain.standard();
        for (Frame f : frames) {
            chain.dissect(f, d);
            r.accept(d);
        }
        return r.finish();
    }

    private static Path cases() {
        return SharedFiles.sampleCases();
    }

    @Test
    void theRealCapturesSendCompletesWhenTheReceiverAcknowledgesIt() throws IOException {
        ReplayResult r = replay(read(SharedFiles.capture("kazikame_uiwarp_v1.pcap")), new Dissection());
        assertEquals(1, r.messages().size());
        Message m = r.messages().get(0);
        assertEquals(MessageKind.SEND, m.kind());
        assertEquals(Transport.IWARP, m.transport());
        assertEquals(16, m.bytes());
        assertEquals(List.of(8), m.frames());
        assertEquals(9, m.completionFrame(), "the FIN/ACK of frame 9 acknowledges the Send's last byte");
        assertEquals(163_000L, m.latencyNanos());
        Flow f = r.flows().get(0);
        assertEquals(List.of(new Flow.Transition(4, "mpa_request"), new Flow.Transition(6, "established"),
                new Flow.Transition(9, "closing"), new Flow.Transition(13, "closed")), f.lifecycle());
        assertEquals(List.of("qp_state", "qp_state", "ddp_version", "qp_state", "qp_state"),
                r.observations().stream().map(o -> o.kind().id()).toList(), "SoftUiWarp sends DDP version 0");
    }

    @Test
    void aSecondPassOverTheSameDissectionStartsOverAndReplaysTheSame() throws IOException {
        Path capture = cases().resolve("iwarp_tcp_recovery").resolve("iwarp_tcp_recovery.pcap");
        List<Frame> frames = read(capture);
        Dissection d = new Dissection();
        ReplayResult first = replay(frames, d);
        ReplayResult second = replay(frames, d);
        assertEquals(first.messages(), second.messages());
        assertEquals(first.observations(), second.observations());
    }

    @Test
    void damagedIwarpCapturesNeverThrowAndEveryMessageEndsSomehow() throws IOException {
        Random random = new Random(5);
        Set<String> statuses = Set.of(Message.COMPLETED, Message.FAILED, Message.INCOMPLETE, Message.DROPPED);
        for (String name : List.of("iwarp_rdma_ops", "iwarp_markers", "iwarp_segmentation", "iwarp_tcp_recovery",
                "iwarp_capture_gap", "iwarp_terminate", "iwarp_violations")) {
            List<Frame> clean = read(cases().resolve(name).resolve(name + ".pcap"));
            for (int round = 0; round < 30; round++) {
                List<Frame> damaged = new ArrayList<>();
                for (Frame f : clean) {
                    byte[] b = f.toByteArray();
                    if (b.length > 40 && random.nextInt(4) == 0) {
                        for (int k = 0; k < 1 + random.nextInt(4); k++) {
                            b[34 + random.nextInt(b.length - 34)] ^= (byte) (1 + random.nextInt(255));
                        }
                    }
                    if (random.nextInt(10) > 0) {
                        damaged.add(new Frame(f.number(), f.timeNanos(), b.length, b.length, f.linkType(), 0,
                                ByteBuffer.wrap(b), 0));
                    }
                }
                ReplayResult r = replay(damaged, new Dissection());
                assertTrue(r.messages().stream().allMatch(m -> statuses.contains(m.status())), name);
            }
        }
    }
}

package io.rdmascope.dissect.stream;

import io.rdmascope.dissect.stream.TcpReassembler.Arrival;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TcpReassemblerTest {
    private static final int ISN = 0xFFFF_FF00; // close to the 32-bit wrap on purpose

    /** Records what the reassembler delivers. */
    static final class Recorder implements TcpReassembler.Sink {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<long[]> gaps = new ArrayList<>();
        final List<Long> frames = new ArrayList<>();
        final List<Long> ahead = new ArrayList<>();
        long expected;

        @Override
        public void deliver(long position, ByteBuffer source, int index, int length, long frame, int frameOffset) {
            assertEquals(expected, position, "bytes must come in stream order, without holes");
            for (int i = 0; i < length; i++) {
                bytes.write(source.get(index + i));
            }
            expected = position + length;
            frames.add(frame);
        }

        @Override
        public void gap(long from, long to, long frame) {
            assertEquals(expected, from, "a gap starts where the delivered bytes stop");
            gaps.add(new long[] {from, to, frame});
            expected = to;
        }

        @Override
        public void ahead(long position, ByteBuffer source, int index, int length, long frame, int frameOffset) {
            ahead.add(frame);
        }
    }

    private static byte[] stream(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 3);
        }
        return b;
    }

    private static Arrival send(TcpReassembler r, Recorder sink, byte[] stream, int from, int to, long frame) {
        return r.segment(ISN + from, ByteBuffer.wrap(stream), from, to - from, to - from, false, frame, 0, sink);
    }

    @Test
    void segmentsInOrderAreDeliveredAsTheyComeAcrossTheSequenceNumberWrap() {
        TcpReassembler r = new TcpReassembler();
        Recorder sink = new Recorder();
        byte[] s = stream(1_000);
        r.syncAt(ISN);
        for (int at = 0, frame = 1; at < s.length; at += 100, frame++) {
            assertEquals(Arrival.IN_ORDER, send(r, sink, s, at, at + 100, frame));
        }
        assertArrayEquals(s, sink.bytes.toByteArray());
        assertEquals(1_000, r.next());
    }

    @Test
    void aRetransmissionDeliversNothingAndAnOverlapOnlyItsNewTail() {
        TcpReassembler r = new TcpReassembler();
        Recorder sink = new Recorder();
        byte[] s = stream(300);
        r.syncAt(ISN);
        send(r, sink, s, 0, 100, 1);
        assertEquals(Arrival.RETRANSMISSION, send(r, sink, s, 0, 100, 2));
        assertEquals(Arrival.PARTIAL_RETRANSMISSION, send(r, sink, s, 50, 200, 3));
        send(r, sink, s, 200, 300, 4);
        assertArrayEquals(s, sink.bytes.toByteArray());
        assertEquals(List.of(1L, 3L, 4L), sink.frames);
    }

    @Nested
    class AHoleIn {
        @Test
        void theStreamHoldsWhatComesAheadAndDeliversItOnceTheHoleFills() {
            TcpReassembler r = new TcpReassembler();
            Recorder sink = new Recorder();
            byte[] s = stream(400);
            r.syncAt(ISN);
            send(r, sink, s, 0, 100, 1);
            assertEquals(Arrival.OUT_OF_ORDER, send(r, sink, s, 200, 300, 2));
            assertEquals(Arrival.OUT_OF_ORDER, send(r, sink, s, 300, 400, 3));
            assertEquals(List.of(2L, 3L), sink.ahead, "held segments are offered for a look");
            assertEquals(Arrival.FILLED_LATE, send(r, sink, s, 100, 200, 4));
            assertArrayEquals(s, sink.bytes.toByteArray());
            assertEquals(List.of(1L, 4L, 2L, 3L), sink.frames, "held bytes keep the frame that carried them");
        }

        @Test
        void aDuplicateAckBeforeTheFillMakesItARetransmissionAfterALoss() {
            TcpReassembler r = new TcpReassembler();
            Recorder sink = new Recorder();
            byte[] s = stream(300);
            r.syncAt(ISN);
            send(r, sink, s, 0, 100, 1);
            send(r, sink, s, 200, 300, 2);
            r.peerAck(ISN + 100, 3, sink); // the receiver asks for byte 100 again
            assertEquals(Arrival.FILLED_AFTER_LOSS, send(r, sink, s, 100, 200, 4));
            assertArrayEquals(s, sink.bytes.toByteArray());
        }

        @Test
        void anAcknowledgementPastBytesNeverCapturedMakesTheHoleAGap() {
            TcpReassembler r = new TcpReassembler();
            Recorder sink = new Recorder();
            byte[] s = stream(300);
            r.syncAt(ISN);
            send(r, sink, s, 0, 100, 1);
            send(r, sink, s, 200, 300, 2);
            assertTrue(r.peerAck(ISN + 300, 3, sink));
            assertEquals(1, sink.gaps.size());
            assertArrayEquals(new long[] {100, 200, 3}, sink.gaps.get(0));
            assertEquals(300, r.next());
            assertEquals(100, r.gapBytes());
        }

        @Test
        void theHeldBytesAreBoundedTheOldestHoleGivenUpFirst() {
            TcpReassembler r = new TcpReassembler();
            Recorder sink = new Recorder();
            int chunk = 64 * 1024;
            byte[] s = stream(chunk * 20);
            r.syncAt(ISN);
            for (int i = 1; i < 20; i++) {
                send(r, sink, s, i * chunk, (i + 1) * chunk, i);
                assertTrue(r.heldBytes() <= TcpReassembler.MAX_BUFFERED_BYTES);
            }
            assertEquals(1, sink.gaps.size(), "the first hole was given up to stay within the bound");
            assertEquals(chunk, sink.gaps.get(0)[1]);
        }

        @Test
        void theEndOfTheCaptureGivesEveryHoleUp() {
            TcpReassembler r = new TcpReassembler();
            Recorder sink = new Recorder();
            byte[] s = stream(500);
            r.syncAt(ISN);
            send(r, sink, s, 100, 200, 1);
            send(r, sink, s, 300, 500, 2);
            r.flush(3, sink);
            assertEquals(2, sink.gaps.size());
            assertEquals(500, r.next());
        }
    }

    @Test
    void aFinTakesOneSequenceNumberSoItsAcknowledgementIsNoGap() {
        TcpReassembler r = new TcpReassembler();
        Recorder sink = new Recorder();
        byte[] s = stream(100);
        r.syncAt(ISN);
        r.segment(ISN, ByteBuffer.wrap(s), 0, 100, 100, true, 1, 0, sink);
        assertTrue(!r.peerAck(ISN + 101, 2, sink), "the ACK of the FIN acknowledges nothing missing");
        assertEquals(List.of(), sink.gaps);
    }

    @Test
    void bytesTheSnapLengthCutAreAGapAtOnce() {
        TcpReassembler r = new TcpReassembler();
        Recorder sink = new Recorder();
        byte[] s = stream(200);
        r.syncAt(ISN);
        r.segment(ISN, ByteBuffer.wrap(s), 0, 60, 100, false, 1, 0, sink);
        assertArrayEquals(new long[] {60, 100, 1}, sink.gaps.get(0));
        send(r, sink, s, 100, 200, 2);
        assertEquals(200, r.next());
    }
}

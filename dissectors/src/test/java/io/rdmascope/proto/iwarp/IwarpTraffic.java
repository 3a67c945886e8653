package io.rdmascope.proto.iwarp;

import io.rdmascope.build.EthernetFrame;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test traffic: one iWARP connection's two byte streams (side 0 the initiator), written with
 * {@link IwarpBuilder} and cut into TCP segments wherever a test says, plus what the dissection makes
 * of the frames, copied out of the reused per-frame results.
 */
final class IwarpTraffic {
    private static final byte[] MAC_A = {2, 0, 0, 0, 0, 1};
    private static final byte[] MAC_B = {2, 0, 0, 0, 0, 2};
    private static final byte[] IP_A = {10, 0, 0, 1};
    private static final byte[] IP_B = {10, 0, 0, 2};
    static final int PORT_A = 40_000;
    static final int PORT_B = 9_999;

    private final ByteArrayOutputStream[] streams = {new ByteArrayOutputStream(), new ByteArrayOutputStream()};
    private final int[] isn = {0x7FFF_FF00, 0x1234_5678};
    private final long[] markerOrigin = {-1, -1};
    private final boolean crc;
    private final boolean[] markers;
    private final List<byte[]> frames = new ArrayList<>();
    private final int[] received = {0, 0};
    private int msn = 1;
    /** Markers as the OSC iWARP stack writes them (clock skips CRC fields, FPDUPTR little-endian). */
    private boolean oscMarkers;
    private final long[] clockSkipped = {0, 0};

    /** A decoded PDU, copied out of the per-frame result. */
    record Pdu(long frame, IwarpPdu.Kind kind, int direction, boolean inOrder, boolean shown, int opcode, boolean last,
               long msn, long offset, int payload, int crcStatus, int markers, int badMarkers, long firstFrame) {
    }

    IwarpTraffic(boolean crc, boolean markersToResponder, boolean markersToInitiator) {
        this.crc = crc;
        this.markers = new boolean[] {markersToResponder, markersToInitiator};
    }

    /** Request and Reply, each in its own segment, each acknowledged. */
    IwarpTraffic startup() {
        int flagsA = (markers[1] ? Mpa.FLAG_MARKERS : 0) | (crc ? Mpa.FLAG_CRC : 0);
        int flagsB = (markers[0] ? Mpa.FLAG_MARKERS : 0) | (crc ? Mpa.FLAG_CRC : 0);
        append(0, IwarpBuilder.startupFrame(true, flagsA, 1, new byte[0]));
        segment(0, 0, length(0));
        append(1, IwarpBuilder.startupFrame(false, flagsB, 1, new byte[0]));
        segment(1, 0, length(1));
        for (int s = 0; s < 2; s++) {
            if (markers[s]) {
                markerOrigin[s] = length(s);
            }
        }
        return this;
    }

    /** Queues a Send of {@code payload} bytes from the initiator (one FPDU); returns its start position. */
    int send(int payload, boolean corruptCrc) {
        byte[] data = new byte[payload];
        Arrays.fill(data, (byte) 'x');
        byte[] ulpdu = IwarpBuilder.untagged(DdpRdmap.OP_SEND, true, 0, 0, msn++, 0, new byte[0], data);
        return fpdu(0, ulpdu, corruptCrc, false);
    }

    /** Queues an FPDU carrying {@code ulpdu} on {@code side}'s stream; returns its start position. */
    int fpdu(int side, byte[] ulpdu, boolean corruptCrc, boolean badMarker) {
        int start = length(side);
        append(side, IwarpBuilder.fpdu(ulpdu, start, markerOrigin[side], clockSkipped[side], oscMarkers, crc,
                corruptCrc, badMarker));
        if (oscMarkers) {
            clockSkipped[side] += Mpa.CRC_LENGTH;
        }
        return start;
    }

    /** From now on, markers as the OSC iWARP stack writes them. */
    IwarpTraffic oscMarkers() {
        oscMarkers = true;
        return this;
    }

    /** Queues raw stream bytes on {@code side}'s stream, as given. */
    void raw(int side, byte[] bytes) {
        append(side, bytes);
    }

    int length(int side) {
        return streams[side].size();
    }

    /** A captured segment of {@code side}'s stream bytes {@code [from, to)}; returns its frame number. */
    int segment(int side, int from, int to) {
        byte[] all = streams[side].toByteArray();
        byte[] payload = Arrays.copyOfRange(all, from, to);
        received[side] = Math.max(received[side], to);
        int ack = isn[1 - side] + 1 + received[1 - side];
        EthernetFrame e = side == 0 ? EthernetFrame.between(MAC_A, MAC_B).ipv4(IP_A, IP_B)
                : EthernetFrame.between(MAC_B, MAC_A).ipv4(IP_B, IP_A);
        frames.add(e.tcp(side == 0 ? PORT_A : PORT_B, side == 0 ? PORT_B : PORT_A,
                (isn[side] + 1 + from) & 0xFFFFFFFFL, ack & 0xFFFFFFFFL, 0x018, payload));
        return frames.size();
    }

    /** A segment without data from {@code 1 - side} acknowledging {@code side}'s stream up to {@code upTo}. */
    int ack(int side, int upTo) {
        int other = 1 - side;
        EthernetFrame e = other == 0 ? EthernetFrame.between(MAC_A, MAC_B).ipv4(IP_A, IP_B)
                : EthernetFrame.between(MAC_B, MAC_A).ipv4(IP_B, IP_A);
        frames.add(e.tcp(other == 0 ? PORT_A : PORT_B, other == 0 ? PORT_B : PORT_A,
                (isn[other] + 1 + length(other)) & 0xFFFFFFFFL, (isn[side] + 1 + upTo) & 0xFFFFFFFFL, 0x010,
                new byte[0]));
        return frames.size();
    }

    private void append(int side, byte[] b) {
        streams[side].writeBytes(b);
    }

    List<Frame> frames() {
        List<Frame> out = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            out.add(Frame.of(i + 1, 1_000_000L * (i + 1), LinkTypes.ETHERNET, frames.get(i)));
        }
        return out;
    }

    /** Dissects every frame in order with one dissection; returns the PDUs each frame yielded. */
    List<Pdu> decode() {
        return decode(frames(), new Dissection());
    }

    static List<Pdu> decode(List<Frame> frames, Dissection d) {
        List<Pdu> out = new ArrayList<>();
        DissectorChain chain = DissectorChain.standard();
        for (Frame f : frames) {
            chain.dissect(f, d);
            IwarpFrame r = IwarpFrame.of(d);
            if (r == null) {
                continue;
            }
            for (int i = 0; i < r.pduCount(); i++) {
                IwarpPdu p = r.pdu(i);
                boolean fpdu = p.kind() == IwarpPdu.Kind.FPDU && p.hasDdpHeader();
                out.add(new Pdu(f.number(), p.kind(), p.direction(), p.inOrder(), p.layer() >= 0,
                        fpdu ? p.opcode() : -1, fpdu && p.last(), fpdu ? p.msn() : -1,
                        fpdu ? p.messageOffset() : -1, fpdu ? p.payloadLength() : -1, p.crcStatus(),
                        p.markerCount(), p.badMarkers(), p.frameCount() > 0 ? p.frame(0) : -1));
            }
        }
        return out;
    }
}

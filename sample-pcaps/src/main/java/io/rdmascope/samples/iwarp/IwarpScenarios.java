package io.rdmascope.samples.iwarp;

import io.rdmascope.proto.iwarp.DdpRdmap;
import io.rdmascope.proto.iwarp.IwarpBuilder;
import io.rdmascope.samples.Fabric;
import io.rdmascope.samples.iwarp.IwarpSession.Fate;
import io.rdmascope.samples.iwarp.IwarpSession.Msg;
import io.rdmascope.samples.iwarp.IwarpSession.Options;

/**
 * The iWARP scenarios of the catalog (issue 8): one behaviour or fault each, over TCP between host 1
 * (the MPA initiator, which requests every message) and host 2.
 */
public final class IwarpScenarios {
    /** The responder's buffer the initiator writes to and reads from, and the initiator's own sink buffer. */
    private static final long REMOTE_STAG = 0x00A1B2C3L;
    private static final long LOCAL_STAG = 0x00D4E5F6L;

    private IwarpScenarios() {
    }

    /**
     * Sends (one FPDU and several, with SE, with Invalidate, with SE and Invalidate), Writes (one FPDU
     * and several) and Reads (one response, several, and zero bytes) with MPA CRCs and no markers,
     * each FPDU in its own segment as RFC 5044 §8 asks, the receiver acknowledging each message.
     */
    public static void rdmaOperations(Fabric f) {
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2), Options.standard(), 1024);
        sendAndAck(s, s.send(200, false));
        sendAndAck(s, s.send(2_500, false));
        sendAndAck(s, s.send(64, true));
        sendAndAck(s, s.sendWithInvalidate(128, 0x00ABCDEFL, false));
        sendAndAck(s, s.sendWithInvalidate(1_500, 0x0000BEEFL, true));
        sendAndAck(s, s.write(512, REMOTE_STAG, 0x10000));
        sendAndAck(s, s.write(3_000, REMOTE_STAG, 0x20000));
        readAndRespond(s, s.read(700, LOCAL_STAG, 0x1000, REMOTE_STAG, 0x30000));
        readAndRespond(s, s.read(4_000, LOCAL_STAG, 0x2000, REMOTE_STAG, 0x40000));
        readAndRespond(s, s.read(0, LOCAL_STAG, 0x3000, REMOTE_STAG, 0x50000));
        s.close();
    }

    /**
     * Markers in both directions and CRCs: FPDUs that cross a marker position, one that starts with
     * a marker, one whose marker sits between its pad and its CRC; then two FPDUs packed into one
     * segment and one FPDU split across two, which Wireshark 4.0 cannot frame with markers.
     */
    public static void markers(Fabric f) {
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2), Options.standard().markers(true, true), 1024);
        sendAndAck(s, s.send(300, false)); // starts at the stream's first marker
        sendAndAck(s, s.send(700, false));
        int n = s.sendSizeWithMarkerBeforeCrc(900);
        sendAndAck(s, s.send(n, false));
        sendAndAck(s, s.write(1_500, REMOTE_STAG, 0x10000));
        readAndRespond(s, s.read(1_800, LOCAL_STAG, 0x1000, REMOTE_STAG, 0x20000));
        Msg a = s.send(250, false);
        Msg b = s.send(350, false);
        s.transmit(0, new int[] {s.fpduRange(b, 0)[1] - s.fpduRange(a, 0)[0]});
        s.ack(0);
        s.idle();
        s.send(900, false);
        s.transmit(0, new int[] {400, 2_000});
        s.ack(0);
        s.close();
    }

    /**
     * Markers as a real sender places them (the OSC iWARP stack, seen on a public capture; docs/iwarp.md),
     * not as RFC 5044 §5 says: the marker clock skips each FPDU's CRC field, so markers drift 4 octets
     * per FPDU against the stream's 512-octet grid, and FPDUPTR is little-endian. Markers both ways, no
     * CRC, like the capture: a Send each way that starts with a marker, a run of one-FPDU Writes, a Read
     * answered by one-FPDU Read Responses, and a Send whose marker falls between pad and CRC.
     */
    public static void markersReal(Fabric f) {
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2),
                Options.standard().crc(false).markers(true, true).withOscMarkers(), 1_038);
        sendAndAck(s, s.send(16, false)); // the first FPDU starts with a marker
        for (int i = 0; i < 22; i++) {
            sendAndAck(s, s.write(1_024, REMOTE_STAG, 0x10000 + 1_024L * i));
        }
        readAndRespond(s, s.read(8 * 1_024, LOCAL_STAG, 0x1000, REMOTE_STAG, 0x20000));
        int n = s.sendSizeWithMarkerBeforeCrc(900);
        sendAndAck(s, s.send(n, false));
        s.close();
    }

    /**
     * No CRCs (RFC 5044 allows them off), markers only towards the initiator, MPA revision 2 with
     * IRD/ORD and a zero-length Send as the RTR message (RFC 6581); FPDUs cut across segments at
     * arbitrary points, six small Sends packed into one segment, and Read Responses cut likewise.
     */
    public static void segmentation(Fabric f) {
        byte[] request = IwarpBuilder.irdOrd(8, 8, true, true, false, false);
        byte[] reply = IwarpBuilder.irdOrd(8, 8, true, true, false, false);
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2),
                Options.standard().crc(false).markers(true, false).revisions(2, 2, request, reply), 2_048);
        sendAndAck(s, s.send(0, false)); // the RTR
        s.send(5_000, false);
        s.transmit(0, new int[] {1_000});
        s.ack(0);
        s.idle();
        for (int i = 0; i < 6; i++) {
            s.send(40 + 10 * i, false);
        }
        s.transmit(0, new int[] {10_000});
        s.ack(0);
        s.idle();
        Msg r = s.read(6_000, LOCAL_STAG, 0x1000, REMOTE_STAG, 0x20000);
        s.transmit(0);
        s.turnaround();
        s.respond(r);
        s.transmit(1, new int[] {1_400, 700});
        s.ack(1);
        s.close();
    }

    /**
     * TCP recovering under iWARP: a segment lost before the capture point, asked for again by the
     * receiver's duplicate ACK and resent (fast retransmit); a segment lost after it, resent after
     * the retransmission timer; and a segment that arrives after the one behind it (reordering).
     */
    public static void tcpRecovery(Fabric f) {
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2), Options.standard(), 1024);
        sendAndAck(s, s.send(300, false));
        Msg lostBefore = s.send(2_500, false);
        s.transmit(0, Fate.DELIVERED, Fate.LOST, Fate.DELIVERED);
        s.ack(0); // duplicate ACK: the second segment is missing
        s.turnaround();
        int[] second = s.fpduRange(lostBefore, 1);
        s.resend(0, second[0], second[1], Fate.DELIVERED);
        s.ack(0);
        s.idle();
        Msg lostAfter = s.write(1_800, REMOTE_STAG, 0x10000);
        s.transmit(0, Fate.LOST_AFTER_CAPTURE, Fate.DELIVERED);
        s.ack(0); // the receiver still waits for the first
        f.pause(200_000_000L); // the retransmission timer (Linux's minimum RTO)
        int[] first = s.fpduRange(lostAfter, 0);
        s.resend(0, first[0], first[1], Fate.DELIVERED);
        s.ack(0);
        s.idle();
        Msg late = s.send(1_500, false);
        int[] head = s.fpduRange(late, 0);
        int[] tail = s.fpduRange(late, 1);
        s.resend(0, tail[0], tail[1], Fate.DELIVERED);
        s.resend(0, head[0], head[1], Fate.DELIVERED);
        s.ack(0);
        s.close();
    }

    /**
     * Over IPv6: a segment the receiver got but the capture missed (mirror overrun), in the middle of
     * a Write: the receiver's ACK shows the hole, the framing is found again at the next segment, and
     * the Write completes with the bytes the capture holds.
     */
    public static void captureGap(Fabric f) {
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2), Options.standard().overIpv6(), 1024);
        sendAndAck(s, s.send(400, false));
        s.write(3_000, REMOTE_STAG, 0x10000);
        s.transmit(0, Fate.DELIVERED, Fate.NOT_CAPTURED, Fate.DELIVERED);
        s.ack(0);
        s.idle();
        sendAndAck(s, s.send(600, false));
        s.close();
    }

    /**
     * A Send with a DDP message sequence number out of order: the responder answers with a Terminate
     * (DDP untagged buffer error, invalid MSN), the connection enters the error state and the Read
     * still outstanding fails.
     */
    public static void terminate(Fabric f) {
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2), Options.standard(), 1024);
        sendAndAck(s, s.send(256, false));
        Msg read = s.read(2_000, LOCAL_STAG, 0x1000, REMOTE_STAG, 0x20000);
        s.transmit(0);
        s.idle();
        Msg bad = s.sendBroken(300, 7, -1, -1, false);
        s.transmit(0);
        s.turnaround();
        s.terminate(DdpRdmap.LAYER_DDP, 2, 0x03, bad);
        s.transmit(1);
        s.ack(1);
        if (read.frames().isEmpty()) {
            throw new IllegalStateException("the Read should have been sent");
        }
        s.close();
    }

    /**
     * Protocol violations on one connection with markers towards the responder: an FPDU whose CRC is
     * wrong, a Write whose marker points elsewhere, a Send on queue 3, a Send whose second segment
     * skips 8 bytes of message offset, a Read Response nobody asked for, and a Send the capture ends
     * before the receiver acknowledges.
     */
    public static void violations(Fabric f) {
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2), Options.standard().markers(false, true), 1024);
        sendAndAck(s, s.sendBroken(200, -1, -1, -1, true));
        sendAndAck(s, s.write(900, REMOTE_STAG, 0x10000, 0));
        sendAndAck(s, s.sendBroken(100, -1, 3, -1, false));
        sendAndAck(s, s.sendBroken(2_500, -1, -1, 2, false));
        s.respondUnasked(LOCAL_STAG, 0x1000, 512);
        s.transmit(1);
        s.ack(1);
        s.idle();
        s.send(128, false);
        s.transmit(0);
        s.end();
    }

    /**
     * The NIC of the Wireshark wiki's iwarp_rdma sample captures (issue 16), both ends alike, no CRCs:
     * untagged messages numbered with one MSN counter across queues (Send 1, Read Request 2, Send 3,
     * ...; RFC 5041 §5.1 keeps one per queue) and Read Requests written in little-endian byte order,
     * answered at the byte-reversed sink (RFC 5040 §4.4 wants network order). Send, Write, Read, Send
     * as in the real capture, then a second Read and Send: every message still completes, each
     * deviation is reported once.
     */
    public static void sharedMsn(Fabric f) {
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2),
                Options.standard().crc(false).nic(IwarpSession.Nic.SHARED_MSN_LITTLE_ENDIAN_READ), 1024);
        sendAndAck(s, s.send(16, false));
        sendAndAck(s, s.write(1_024, REMOTE_STAG, 0x10000));
        readAndRespond(s, s.read(1_024, LOCAL_STAG, 0x805c000L, REMOTE_STAG, 0x20000));
        sendAndAck(s, s.send(4, false));
        readAndRespond(s, s.read(3_000, LOCAL_STAG, 0x1000, REMOTE_STAG, 0x30000));
        sendAndAck(s, s.send(200, false));
        s.close();
    }

    /** An MPA Request with revision 3 (neither RFC 5044's 1 nor RFC 6581's 2), answered by a Reply that rejects. */
    public static void reject(Fabric f) {
        IwarpSession s = IwarpSession.connect(f, f.host(1), f.host(2),
                Options.standard().revisions(3, 1, new byte[0], "no listener".getBytes(
                        java.nio.charset.StandardCharsets.US_ASCII)).rejected(), 1024);
        s.close();
    }

    /** The initiator's message sent, the responder's TCP acknowledging it. */
    public static void sendAndAck(IwarpSession s, Msg m) {
        s.transmit(0);
        s.turnaround();
        s.ack(0);
        s.idle();
    }

    /** The initiator's Read Request sent, the responder's Read Responses, the initiator's acknowledgement. */
    public static void readAndRespond(IwarpSession s, Msg read) {
        s.transmit(0);
        s.turnaround();
        s.respond(read);
        s.transmit(1);
        s.turnaround();
        s.ack(1);
        s.idle();
    }
}

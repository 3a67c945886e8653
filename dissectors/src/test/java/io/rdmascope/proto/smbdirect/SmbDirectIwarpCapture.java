package io.rdmascope.proto.smbdirect;

import io.rdmascope.build.EthernetFrame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.iwarp.DdpRdmap;
import io.rdmascope.proto.iwarp.IwarpBuilder;
import io.rdmascope.proto.iwarp.Mpa;
import io.rdmascope.text.PcapFixtures;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * SMB Direct over iWARP ([MS-SMBD] §2.1: an MPA connection to TCP port 5445, every SMB Direct message
 * one RDMAP Send), built through the packet builder: the TCP handshake, the MPA Request and Reply
 * (RFC 5044 §7.1, CRCs on), then as Sends the same messages as the RoCE session of {@link
 * SmbDirectCapture} (negotiate, an SMB2 ECHO each way, a credits-only message, a WRITE request in
 * three Data Transfer fragments) and one SMB2 message in a Send of two DDP segments (RFC 5041 §5.3,
 * message offsets 0 and 1000), and the server's acknowledgment of it all. Options take out the
 * handshake and the MPA startup, to build a connection the capture meets mid-stream.
 */
final class SmbDirectIwarpCapture {
    static final int CLIENT_PORT = 50_123;
    private static final byte[] MAC_CLIENT = {2, 0, 0, 0, 0, 0x1a};
    private static final byte[] MAC_SERVER = {2, 0, 0, 0, 0, 0x1b};
    private static final byte[] IP_CLIENT = {10, 0, 1, 1};
    private static final byte[] IP_SERVER = {10, 0, 1, 2};
    /** The SMB2 message sent in two DDP segments: its id and the first segment's share of it. */
    static final long TWO_SEGMENT_MESSAGE_ID = 9;
    private static final int FIRST_SEGMENT = 1000;

    private final int serverPort;
    private final boolean handshake;
    private final boolean startup;
    private boolean requestCaptured = true;
    private final long[] next = {0x1000_0000L, 0x2000_0000L};
    private final int[] msn = {1, 1};
    private final List<byte[]> frames = new ArrayList<>();
    /** Frame numbers (1-based) of the messages, in the order built: see {@link #build}. */
    final List<Integer> messageFrames = new ArrayList<>();

    private SmbDirectIwarpCapture(int serverPort, boolean handshake, boolean startup) {
        this.serverPort = serverPort;
        this.handshake = handshake;
        this.startup = startup;
    }

    /**
     * The session to {@code serverPort}: with the TCP handshake when {@code handshake}, the MPA
     * Request and Reply when {@code startup} (without them, from the first Data Transfer message on:
     * the negotiation happened before the capture).
     */
    static SmbDirectIwarpCapture build(int serverPort, boolean handshake, boolean startup) {
        SmbDirectIwarpCapture c = new SmbDirectIwarpCapture(serverPort, handshake, startup);
        c.session();
        return c;
    }

    /**
     * The session to {@code serverPort} as a capture that began between the MPA Request and the
     * Reply: no handshake, no Request; the Reply first.
     */
    static SmbDirectIwarpCapture fromTheReply(int serverPort) {
        SmbDirectIwarpCapture c = new SmbDirectIwarpCapture(serverPort, false, true);
        c.requestCaptured = false;
        c.session();
        return c;
    }

    Path write(Path dir, String name) throws IOException {
        Path file = dir.resolve(name);
        PcapFixtures.writePcap(file, LinkTypes.ETHERNET, frames);
        return file;
    }

    private void session() {
        if (handshake) {
            segment(0, 0x002, new byte[0]);
            next[0]++;
            segment(1, 0x012, new byte[0]);
            next[1]++;
            segment(0, 0x010, new byte[0]);
        }
        if (startup) {
            segment(0, 0x018, IwarpBuilder.startupFrame(true, Mpa.FLAG_CRC, 1, new byte[0]));
            if (!requestCaptured) {
                frames.remove(frames.size() - 1); // sent, so the Reply acknowledges it, but not captured
            }
            segment(1, 0x018, IwarpBuilder.startupFrame(false, Mpa.FLAG_CRC, 1, new byte[0]));
            send(0, SmbDirectCapture.negotiateRequest());
            send(1, SmbDirectCapture.negotiateResponse());
        }
        send(0, SmbDirectCapture.dataMessage(255, 1, SmbDirect.FLAG_RESPONSE_REQUESTED,
                SmbDirectCapture.echo(false)));
        send(1, SmbDirectCapture.dataMessage(255, 10, 0, SmbDirectCapture.echo(true)));
        send(0, SmbDirectCapture.dataMessage(255, 5, 0, new byte[0]));
        for (byte[] fragment : SmbDirectCapture.fragments(SmbDirectCapture.write(
                SmbDirectCapture.FRAGMENTED_MESSAGE_ID, SmbDirectCapture.FRAGMENTED_LENGTH),
                SmbDirectCapture.FRAGMENT_SIZES)) {
            send(0, fragment);
        }
        byte[] big = SmbDirectCapture.dataMessage(255, 0, 0,
                SmbDirectCapture.write(TWO_SEGMENT_MESSAGE_ID, 1264));
        int m = msn[0]++;
        segment(0, 0x018, fpdu(IwarpBuilder.untagged(DdpRdmap.OP_SEND, false, 0, 0, m, 0, new byte[0],
                Arrays.copyOfRange(big, 0, FIRST_SEGMENT))));
        send(0, m, FIRST_SEGMENT, Arrays.copyOfRange(big, FIRST_SEGMENT, big.length));
        segment(1, 0x010, new byte[0]); // the server acknowledges all, so every Send completes
    }

    /** A Send of one DDP segment carrying {@code message} from {@code side} (0 the client). */
    private void send(int side, byte[] message) {
        send(side, msn[side]++, 0, message);
    }

    private void send(int side, int messageSequence, int offset, byte[] bytes) {
        byte[] ulpdu = IwarpBuilder.untagged(DdpRdmap.OP_SEND, true, 0, 0, messageSequence, offset, new byte[0], bytes);
        messageFrames.add(segment(side, 0x018, fpdu(ulpdu)));
    }

    private static byte[] fpdu(byte[] ulpdu) {
        return IwarpBuilder.fpdu(ulpdu, 0, -1, true, false, false);
    }

    /** A TCP segment from {@code side} with {@code flags}; returns its frame number. */
    private int segment(int side, int flags, byte[] payload) {
        EthernetFrame e = side == 0 ? EthernetFrame.between(MAC_CLIENT, MAC_SERVER).ipv4(IP_CLIENT, IP_SERVER)
                : EthernetFrame.between(MAC_SERVER, MAC_CLIENT).ipv4(IP_SERVER, IP_CLIENT);
        int src = side == 0 ? CLIENT_PORT : serverPort;
        int dst = side == 0 ? serverPort : CLIENT_PORT;
        long ack = (flags & 0x010) != 0 ? next[1 - side] & 0xFFFFFFFFL : 0;
        frames.add(e.tcp(src, dst, next[side] & 0xFFFFFFFFL, ack, flags, payload));
        next[side] += payload.length;
        return frames.size();
    }
}

package io.rdmascope.proto.smbdirect;

import io.rdmascope.build.EthernetFrame;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.iwarp.DdpRdmap;
import io.rdmascope.proto.iwarp.IwarpBuilder;
import io.rdmascope.proto.iwarp.Mpa;
import io.rdmascope.text.PcapFixtures;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 *
 * <p>{@link #operations()} builds instead a session of SMB2 operations whose data moves by RDMA
 * ([MS-SMB2] §2.2.19, §2.2.21 over SMB2_CHANNEL_RDMA_V1, [MS-SMBD] §2.2.3.1 buffer descriptors): see
 * there for its frames.
 */
public final class SmbDirectIwarpCapture {
    static final int CLIENT_PORT = 50_123;
    private static final byte[] MAC_CLIENT = {2, 0, 0, 0, 0, 0x1a};
    private static final byte[] MAC_SERVER = {2, 0, 0, 0, 0, 0x1b};
    private static final byte[] IP_CLIENT = {10, 0, 1, 1};
    private static final byte[] IP_SERVER = {10, 0, 1, 2};
    /** The SMB2 message sent in two DDP segments: its id and the first segment's share of it. */
    static final long TWO_SEGMENT_MESSAGE_ID = 9;
    private static final int FIRST_SEGMENT = 1000;
    /** The operations session's buffers: the client's for the READ and the WRITE (its descriptors), the server's Read sink. */
    public static final long READ_TOKEN = 0x6001;
    public static final long READ_OFFSET = 0x0000_7F3A_C000_0000L;
    public static final long WRITE_TOKEN = 0x6002;
    public static final long WRITE_OFFSET = 0x0000_7F3A_D000_0000L;
    public static final long SERVER_SINK_STAG = 0x9001;
    public static final long SERVER_SINK_OFFSET = 0x0001_0000L;
    /** Bytes of one RDMA Write or Read Response segment in the operations session. */
    public static final int SEGMENT_BYTES = 2048;
    private static final int SMB2_READ = 0x08;
    private static final int SMB2_WRITE = 0x09;
    private static final int SMB2_CREATE = 0x05;
    private static final int SMB2_ECHO = 0x0D;
    private static final int STATUS_OBJECT_NAME_NOT_FOUND = 0xC0000034;

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

    /**
     * SMB2 operations over iWARP, to port 5445: the TCP handshake (frames 1-3), MPA Request and Reply
     * (4, 5), the SMB Direct negotiation (6, 7), then
     * <ol>
     *   <li>READ, message id 1, of 4096 bytes into the client's buffer {@link #READ_TOKEN} at
     *       {@link #READ_OFFSET} (frame 8); the server's ACK (9), its RDMA Write in two segments of
     *       {@link #SEGMENT_BYTES} to that STag and offset (10, 11), an RDMA Write to the same STag past
     *       the buffer, which belongs to no command (12), and the success response (13);</li>
     *   <li>WRITE, message id 2, of 2048 bytes from the client's buffer {@link #WRITE_TOKEN} at
     *       {@link #WRITE_OFFSET} (14); the server's RDMA Read Request from it into its own sink
     *       {@link #SERVER_SINK_STAG} (15, acknowledging the WRITE), the client's Read Response (16),
     *       the success response (17);</li>
     *   <li>CREATE, message id 3 (18), failed with STATUS_OBJECT_NAME_NOT_FOUND (19);</li>
     *   <li>ECHO, message id 4 (20), acknowledged (21) and never answered: the client closes the
     *       connection with a FIN (22), the server answers with its own FIN (23) and the client ACKs it (24).</li>
     * </ol>
     * Every segment but the pure ACKs carries the acknowledgment of all the peer sent before.
     */
    public static SmbDirectIwarpCapture operations() {
        SmbDirectIwarpCapture c = new SmbDirectIwarpCapture(SmbDirect.PORT, true, true);
        c.opening();
        c.operationsSession();
        return c;
    }

    /**
     * SMB2 operations over iWARP packed as stacks send them, several FPDUs to a TCP segment: after the
     * opening (frames 1-7), the client's READ (message id 1, 4096 bytes into {@link #READ_TOKEN}) and
     * ECHO (id 2) in one segment (8); the server's RDMA Write of the READ's data, the READ's response
     * and the ECHO's in one segment (9), which also acknowledges both; the client's ECHO, id 3 (10),
     * the server's RDMAP Terminate (11, RFC 5040 §4.8: RDMAP layer, remote operation error) and its
     * RST (12).
     */
    public static SmbDirectIwarpCapture packedOperations() {
        SmbDirectIwarpCapture c = new SmbDirectIwarpCapture(SmbDirect.PORT, true, true);
        c.opening();
        c.segment(0, 0x018, concat(c.sendFpdu(0, request(readRequest(1, 4096, READ_TOKEN, READ_OFFSET))),
                c.sendFpdu(0, request(SmbDirectCapture.smb2(SMB2_ECHO, false, 2, 4)))));
        c.segment(1, 0x018, concat(fpdu(IwarpBuilder.tagged(DdpRdmap.OP_WRITE, true, READ_TOKEN, READ_OFFSET,
                        new byte[4096])), c.sendFpdu(1, response(SMB2_READ, 1, 0)),
                c.sendFpdu(1, response(SMB2_ECHO, 2, 0))));
        c.send(0, request(SmbDirectCapture.smb2(SMB2_ECHO, false, 3, 4)));
        c.segment(1, 0x018, fpdu(IwarpBuilder.untagged(DdpRdmap.OP_TERMINATE, true, 0, DdpRdmap.QN_TERMINATE, 1, 0,
                IwarpBuilder.terminate(1, 2, 0, 0, null, null), new byte[0])));
        c.segment(1, 0x014, new byte[0]);
        return c;
    }

    /**
     * A connection whose first command comes from the MPA responder (the server): after the opening
     * (frames 1-7, the client the TCP and MPA initiator), the server's ECHO, message id 7 (8), which the
     * client acknowledges (9) and never answers; the client's CREATE, id 1 (10), and its success response
     * (11); the client's FIN (12), the server's (13) and the client's last ACK (14).
     */
    public static SmbDirectIwarpCapture responderCommandsFirst() {
        SmbDirectIwarpCapture c = new SmbDirectIwarpCapture(SmbDirect.PORT, true, true);
        c.opening();
        c.send(1, request(SmbDirectCapture.smb2(SMB2_ECHO, false, 7, 4)));
        c.segment(0, 0x010, new byte[0]);
        c.send(0, request(SmbDirectCapture.smb2(SMB2_CREATE, false, 1, 56)));
        c.send(1, response(SMB2_CREATE, 1, 0));
        c.closing();
        return c;
    }

    /** The frames one second apart, as {@link PcapFixtures#writePcap} writes them: frame n at n - 1 seconds. */
    public List<Frame> frames() {
        List<Frame> out = new ArrayList<>(frames.size());
        for (int i = 0; i < frames.size(); i++) {
            byte[] f = frames.get(i);
            out.add(new Frame(i + 1, i * 1_000_000_000L, f.length, f.length, LinkTypes.ETHERNET, 0,
                    ByteBuffer.wrap(f), 0));
        }
        return out;
    }

    public Path write(Path dir, String name) throws IOException {
        Path file = dir.resolve(name);
        PcapFixtures.writePcap(file, LinkTypes.ETHERNET, frames);
        return file;
    }

    private void session() {
        opening();
        messages();
    }

    /** The TCP handshake and the MPA startup with the SMB Direct negotiation, as the options ask. */
    private void opening() {
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
    }

    private void messages() {
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

    private void operationsSession() {
        send(0, request(readRequest(1, 4096, READ_TOKEN, READ_OFFSET)));
        segment(1, 0x010, new byte[0]);
        for (int i = 0; i < 2; i++) {
            segment(1, 0x018, fpdu(IwarpBuilder.tagged(DdpRdmap.OP_WRITE, i == 1, READ_TOKEN,
                    READ_OFFSET + (long) i * SEGMENT_BYTES, new byte[SEGMENT_BYTES])));
        }
        segment(1, 0x018, fpdu(IwarpBuilder.tagged(DdpRdmap.OP_WRITE, true, READ_TOKEN, READ_OFFSET + 4096,
                new byte[SEGMENT_BYTES])));
        send(1, response(SMB2_READ, 1, 0));

        send(0, request(writeRequest(2, SEGMENT_BYTES, WRITE_TOKEN, WRITE_OFFSET)));
        segment(1, 0x018, fpdu(IwarpBuilder.untagged(DdpRdmap.OP_READ_REQUEST, true, 0, DdpRdmap.QN_READ_REQUEST, 1, 0,
                IwarpBuilder.readRequest(SERVER_SINK_STAG, SERVER_SINK_OFFSET, SEGMENT_BYTES, WRITE_TOKEN,
                        WRITE_OFFSET), new byte[0])));
        segment(0, 0x018, fpdu(IwarpBuilder.tagged(DdpRdmap.OP_READ_RESPONSE, true, SERVER_SINK_STAG,
                SERVER_SINK_OFFSET, new byte[SEGMENT_BYTES])));
        send(1, response(SMB2_WRITE, 2, 0));

        send(0, request(SmbDirectCapture.smb2(SMB2_CREATE, false, 3, 56)));
        send(1, response(SMB2_CREATE, 3, STATUS_OBJECT_NAME_NOT_FOUND));

        send(0, request(SmbDirectCapture.smb2(SMB2_ECHO, false, 4, 4)));
        segment(1, 0x010, new byte[0]);
        closing();
    }

    /** The client's FIN, the server's, and the client's ACK of it. */
    private void closing() {
        segment(0, 0x011, new byte[0]);
        next[0]++;
        segment(1, 0x011, new byte[0]);
        next[1]++;
        segment(0, 0x010, new byte[0]);
    }

    /** An SMB2 request in a Data Transfer message asking for a credit back. */
    private static byte[] request(byte[] smb2) {
        return SmbDirectCapture.dataMessage(255, 0, SmbDirect.FLAG_RESPONSE_REQUESTED, smb2);
    }

    /** The server's response to {@code command} with {@code status}, granting a credit. */
    private static byte[] response(int command, long messageId, int status) {
        byte[] m = SmbDirectCapture.smb2(command, true, messageId, 16);
        ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(8, status);
        return SmbDirectCapture.dataMessage(255, 1, 0, m);
    }

    /**
     * An SMB2 READ request on SMB2_CHANNEL_RDMA_V1 ([MS-SMB2] §2.2.19): Length at body byte 4, Channel
     * at 36, ReadChannelInfoOffset/Length at 44/46 naming the one buffer descriptor at body byte 48.
     */
    private static byte[] readRequest(long messageId, int length, long token, long offset) {
        ByteBuffer b = rdmaChannelRequest(SMB2_READ, messageId, length, token, offset);
        b.putInt(64 + 4, length).putInt(64 + 36, 1).putShort(64 + 44, (short) 112).putShort(64 + 46, (short) 16);
        return b.array();
    }

    /**
     * An SMB2 WRITE request on SMB2_CHANNEL_RDMA_V1 ([MS-SMB2] §2.2.21): Length 0, Channel at body byte
     * 32, RemainingBytes (the size) at 36, WriteChannelInfoOffset/Length at 40/42 naming the descriptor.
     */
    private static byte[] writeRequest(long messageId, int length, long token, long offset) {
        ByteBuffer b = rdmaChannelRequest(SMB2_WRITE, messageId, length, token, offset);
        b.putInt(64 + 32, 1).putInt(64 + 36, length).putShort(64 + 40, (short) 112).putShort(64 + 42, (short) 16);
        return b.array();
    }

    /** The header, a zeroed 48-byte body (StructureSize 49) and one Buffer Descriptor V1 ([MS-SMBD] §2.2.3.1). */
    private static ByteBuffer rdmaChannelRequest(int command, long messageId, int length, long token, long offset) {
        byte[] m = SmbDirectCapture.smb2(command, false, messageId, 64);
        Arrays.fill(m, 64, m.length, (byte) 0);
        ByteBuffer b = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(64, (short) 49).putLong(64 + 48, offset).putInt(64 + 56, (int) token).putInt(64 + 60, length);
        return b;
    }

    /** The FPDU of a Send of one DDP segment carrying {@code message} from {@code side}, for a segment of several. */
    private byte[] sendFpdu(int side, byte[] message) {
        return fpdu(IwarpBuilder.untagged(DdpRdmap.OP_SEND, true, 0, 0, msn[side]++, 0, new byte[0], message));
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
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

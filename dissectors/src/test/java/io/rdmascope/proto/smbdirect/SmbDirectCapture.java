package io.rdmascope.proto.smbdirect;

import io.rdmascope.build.CmMad;
import io.rdmascope.build.RocePacket;
import io.rdmascope.text.PcapFixtures;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A RoCEv2 SMB Direct session built through the project's packet builder: the RDMA-CM connection to
 * {@code port} (REQ, REP, RTU), the negotiate exchange ([MS-SMBD] §2.2.1, §2.2.2), an SMB2 ECHO
 * request and its response in Data Transfer messages (§2.2.3, [MS-SMB2] §2.2.28), and a Data Transfer
 * message that only grants credits, and an SMB2 WRITE request in three Data Transfer fragments.
 * Frame numbers below are 1-based, as tools print them.
 */
final class SmbDirectCapture {
    static final int CLIENT_QPN = 0x000123;
    static final int SERVER_QPN = 0x000456;
    static final long MESSAGE_ID = 7;
    static final long SESSION_ID = 0x0000100000000021L;
    static final int FRAME_NEGOTIATE_REQUEST = 4;
    static final int FRAME_NEGOTIATE_RESPONSE = 5;
    static final int FRAME_ECHO_REQUEST = 6;
    static final int FRAME_ECHO_RESPONSE = 7;
    static final int FRAME_CREDITS_ONLY = 8;
    /** An SMB2 WRITE request in three Data Transfer fragments ([MS-SMBD] §3.1.5.1): frames 9, 10 and 11. */
    static final int FRAME_FIRST_FRAGMENT = 9;
    static final int FRAME_LAST_FRAGMENT = 11;
    static final long FRAGMENTED_MESSAGE_ID = 8;
    /** The WRITE request's length: header, and a body the three fragments carry 96, 96 and 72 bytes of. */
    static final int FRAGMENTED_LENGTH = 264;
    static final int[] FRAGMENT_SIZES = {96, 96, 72};

    private static final byte[] MAC_CLIENT = {2, 0, 0, 0, 0, 0x0a};
    private static final byte[] MAC_SERVER = {2, 0, 0, 0, 0, 0x0b};
    private static final byte[] IP_CLIENT = {10, 0, 0, 1};
    private static final byte[] IP_SERVER = {10, 0, 0, 2};
    private static final long TID = 0x0000_0002_6dc5_c06eL;
    private static final int CLIENT_COMM_ID = 0x6ec0c56d;
    private static final int SERVER_COMM_ID = 0x1234;
    private static final int SEND_ONLY = 0x04;

    private SmbDirectCapture() {
    }

    /** The frames, each a whole Ethernet frame. */
    static List<byte[]> frames(int port) {
        List<byte[]> frames = new ArrayList<>();
        frames.add(toServer(1).gsiMad(CmMad.req(new CmMad.Request(TID, CLIENT_COMM_ID, CLIENT_QPN, 0x100,
                CmMad.mtuCode(1024), 16, 16, 17, 7, 7, gid(IP_CLIENT), gid(IP_SERVER), port, IP_CLIENT, IP_SERVER,
                0x025056fffea77d03L))).build());
        frames.add(toClient(1).gsiMad(CmMad.rep(TID, SERVER_COMM_ID, CLIENT_COMM_ID, SERVER_QPN, 0x200, 16, 16, 7,
                0x025056fffea7129fL)).build());
        frames.add(toServer(2).gsiMad(CmMad.rtu(TID, CLIENT_COMM_ID, SERVER_COMM_ID)).build());
        frames.add(toServer(0x100).opcode(SEND_ONLY).destQp(SERVER_QPN).payload(negotiateRequest()).build());
        frames.add(toClient(0x200).opcode(SEND_ONLY).destQp(CLIENT_QPN).payload(negotiateResponse()).build());
        frames.add(toServer(0x101).opcode(SEND_ONLY).destQp(SERVER_QPN)
                .payload(dataMessage(255, 1, SmbDirect.FLAG_RESPONSE_REQUESTED, echo(false))).build());
        frames.add(toClient(0x201).opcode(SEND_ONLY).destQp(CLIENT_QPN)
                .payload(dataMessage(255, 10, 0, echo(true))).build());
        frames.add(toServer(0x102).opcode(SEND_ONLY).destQp(SERVER_QPN)
                .payload(dataMessage(255, 5, 0, new byte[0])).build());
        int psn = 0x103;
        for (byte[] fragment : fragments(write(FRAGMENTED_MESSAGE_ID, FRAGMENTED_LENGTH),
                FRAGMENT_SIZES)) {
            frames.add(toServer(psn++).opcode(SEND_ONLY).destQp(SERVER_QPN).payload(fragment).build());
        }
        return frames;
    }

    /**
     * {@code message} cut into Data Transfer messages of {@code sizes} data bytes each, every one but
     * the last with RemainingLength the bytes still to come ([MS-SMBD] §3.1.5.1).
     */
    static List<byte[]> fragments(byte[] message, int... sizes) {
        List<byte[]> out = new ArrayList<>();
        int at = 0;
        for (int size : sizes) {
            byte[] data = java.util.Arrays.copyOfRange(message, at, at + size);
            at += size;
            byte[] m = dataMessage(255, 0, 0, data);
            ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(8, message.length - at);
            out.add(m);
        }
        return out;
    }

    /**
     * The session taken up mid-connection, with no CM exchange and no negotiation: an oplock break the
     * server sends unasked (MessageId all ones, [MS-SMB2] §3.3.4.6), the ECHO request and its response,
     * then the fragmented WRITE; as a pcap in {@code dir}.
     */
    static Path writeMidStream(Path dir) throws IOException {
        List<byte[]> frames = new ArrayList<>();
        frames.add(toClient(0x200).opcode(SEND_ONLY).destQp(CLIENT_QPN)
                .payload(dataMessage(255, 1, 0, smb2(0x12, true, -1L, 24))).build());
        frames.add(toServer(0x101).opcode(SEND_ONLY).destQp(SERVER_QPN)
                .payload(dataMessage(255, 1, SmbDirect.FLAG_RESPONSE_REQUESTED, echo(false))).build());
        frames.add(toClient(0x201).opcode(SEND_ONLY).destQp(CLIENT_QPN)
                .payload(dataMessage(255, 10, 0, echo(true))).build());
        int psn = 0x102;
        for (byte[] fragment : fragments(write(FRAGMENTED_MESSAGE_ID, FRAGMENTED_LENGTH), FRAGMENT_SIZES)) {
            frames.add(toServer(psn++).opcode(SEND_ONLY).destQp(SERVER_QPN).payload(fragment).build());
        }
        Path file = dir.resolve("smbdirect-mid-stream.pcap");
        PcapFixtures.writePcap(file, RocePacket.v2Ipv4(MAC_CLIENT, MAC_SERVER, IP_CLIENT, IP_SERVER).linkType(), frames);
        return file;
    }

    /** Writes the session for {@code port} as a pcap in {@code dir}. */
    static Path write(Path dir, int port) throws IOException {
        Path file = dir.resolve("smbdirect-" + port + ".pcap");
        PcapFixtures.writePcap(file, RocePacket.v2Ipv4(MAC_CLIENT, MAC_SERVER, IP_CLIENT, IP_SERVER).linkType(),
                frames(port));
        return file;
    }

    /** Negotiate Request ([MS-SMBD] §2.2.1): version 1.0 only, 255 credits, 1364/8192/1 MiB sizes. */
    static byte[] negotiateRequest() {
        return le(20).putShort((short) 0x0100).putShort((short) 0x0100).putShort((short) 0).putShort((short) 255)
                .putInt(1364).putInt(8192).putInt(1048576).array();
    }

    /** Negotiate Response ([MS-SMBD] §2.2.2): version 1.0, 255 requested, 10 granted, success. */
    static byte[] negotiateResponse() {
        return le(32).putShort((short) 0x0100).putShort((short) 0x0100).putShort((short) 0x0100).putShort((short) 0)
                .putShort((short) 255).putShort((short) 10).putInt(0).putInt(1048576).putInt(1364).putInt(8192)
                .putInt(1048576).array();
    }

    /** Data Transfer message ([MS-SMBD] §2.2.3) with the data at offset 24, or none. */
    static byte[] dataMessage(int creditsRequested, int creditsGranted, int flags, byte[] data) {
        ByteBuffer b = le(data.length == 0 ? 20 : 24 + data.length);
        b.putShort((short) creditsRequested).putShort((short) creditsGranted).putShort((short) flags)
                .putShort((short) 0).putInt(0).putInt(data.length == 0 ? 0 : 24).putInt(data.length);
        if (data.length > 0) {
            b.putInt(0); // padding to the 8-byte aligned data
            b.put(data);
        }
        return b.array();
    }

    /** An SMB2 ECHO request or response ([MS-SMB2] §2.2.28, §2.2.29): the 64-byte header and a 4-byte body. */
    static byte[] echo(boolean response) {
        byte[] m = smb2(0x0D, response, MESSAGE_ID, 4);
        java.util.Arrays.fill(m, 64, 68, (byte) 0);
        m[64] = 4; // StructureSize 4, Reserved 0
        return m;
    }

    /**
     * An SMB2 WRITE request ([MS-SMB2] §2.2.21) of {@code total} bytes: the header, the 48-byte fixed
     * body (StructureSize 49, the data at offset 112, file offset 0, FileId zero, no channel) and the
     * data, counting up from 0.
     */
    static byte[] write(long messageId, int total) {
        byte[] m = smb2(0x09, false, messageId, total - 64);
        ByteBuffer b = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(64, (short) 49).putShort(66, (short) 112).putInt(68, total - 112);
        java.util.Arrays.fill(m, 72, 112, (byte) 0);
        return m;
    }

    /**
     * An SMB2 message ([MS-SMB2] §2.2.1.2): the 64-byte header for {@code command} (a response when
     * {@code response}) and {@code bodyLength} body bytes counting up from 0.
     */
    static byte[] smb2(int command, boolean response, long messageId, int bodyLength) {
        ByteBuffer b = le(64 + bodyLength);
        b.putInt((int) SmbDirect.SMB2_PROTOCOL_ID).putShort((short) 64).putShort((short) 1).putInt(0)
                .putShort((short) command).putShort((short) (response ? 1 : 31)).putInt(response ? 1 : 0).putInt(0)
                .putLong(messageId).putInt(0xFEFF).putInt(0).putLong(SESSION_ID);
        for (int i = 0; i < bodyLength; i++) {
            b.put(64 + i, (byte) i);
        }
        return b.array();
    }

    private static RocePacket toServer(int psn) {
        return RocePacket.v2Ipv4(MAC_CLIENT, MAC_SERVER, IP_CLIENT, IP_SERVER).psn(psn);
    }

    private static RocePacket toClient(int psn) {
        return RocePacket.v2Ipv4(MAC_SERVER, MAC_CLIENT, IP_SERVER, IP_CLIENT).psn(psn);
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] gid(byte[] ip) {
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xFF;
        gid[11] = (byte) 0xFF;
        System.arraycopy(ip, 0, gid, 12, 4);
        return gid;
    }
}

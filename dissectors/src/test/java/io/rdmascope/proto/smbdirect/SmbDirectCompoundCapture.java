package io.rdmascope.proto.smbdirect;

import io.rdmascope.build.RocePacket;
import io.rdmascope.text.PcapFixtures;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Compounded SMB2 messages in one SMB Direct Data Transfer message over RoCE ([MS-SMB2] §3.2.4.1.4: each
 * header's NextCommand the 8-byte aligned offset of the next): the session of {@link SmbDirectCapture}
 * (frames 1-11: CM, negotiation, an ECHO, message id 7, answered in frame 7, a credits-only message, a
 * WRITE, id 8, in three fragments that nothing answers), then a chained request of {@link #CHAINED} ECHOs,
 * ids 20, 21 and 22 (frame 12), and their chained response (frame 13). As {@link PcapFixtures#writePcap}
 * writes them, frame n lies at n - 1 seconds.
 */
public final class SmbDirectCompoundCapture {
    /** The frames of the chained request and of its chained response. */
    public static final int REQUEST_FRAME = 12;
    public static final int RESPONSE_FRAME = 13;
    public static final int CHAINED = 3;
    public static final long FIRST_CHAINED_ID = 20;
    private static final int SEND_ONLY = 0x04;
    /** An ECHO is 68 bytes (64-byte header, 4-byte body); the next starts at the 8-byte boundary. */
    static final int ECHO_STRIDE = 72;

    private SmbDirectCompoundCapture() {
    }

    /** {@link #CHAINED} ECHOs from message id {@link #FIRST_CHAINED_ID} on, each pointing at the next but the last. */
    private static byte[] chainedEchoes(boolean response) {
        ByteBuffer b = ByteBuffer.allocate(ECHO_STRIDE * (CHAINED - 1) + 68).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < CHAINED; i++) {
            byte[] echo = SmbDirectCapture.echo(response);
            ByteBuffer e = ByteBuffer.wrap(echo).order(ByteOrder.LITTLE_ENDIAN);
            e.putLong(24, FIRST_CHAINED_ID + i).putInt(20, i < CHAINED - 1 ? ECHO_STRIDE : 0);
            b.put(ECHO_STRIDE * i, echo);
        }
        return b.array();
    }

    /** Writes the session as {@code compound.pcap} in {@code dir}. */
    public static Path write(Path dir) throws IOException {
        List<byte[]> frames = new ArrayList<>(SmbDirectCapture.frames(SmbDirect.PORT));
        RocePacket client = RocePacket.v2Ipv4(new byte[] {2, 0, 0, 0, 0, 0x0a}, new byte[] {2, 0, 0, 0, 0, 0x0b},
                new byte[] {10, 0, 0, 1}, new byte[] {10, 0, 0, 2});
        RocePacket server = RocePacket.v2Ipv4(new byte[] {2, 0, 0, 0, 0, 0x0b}, new byte[] {2, 0, 0, 0, 0, 0x0a},
                new byte[] {10, 0, 0, 2}, new byte[] {10, 0, 0, 1});
        frames.add(client.opcode(SEND_ONLY).destQp(SmbDirectCapture.SERVER_QPN).psn(0x140)
                .payload(SmbDirectCapture.dataMessage(255, 0, 0, chainedEchoes(false))).build());
        frames.add(server.opcode(SEND_ONLY).destQp(SmbDirectCapture.CLIENT_QPN).psn(0x240)
                .payload(SmbDirectCapture.dataMessage(255, 3, 0, chainedEchoes(true))).build());
        Path file = dir.resolve("compound.pcap");
        PcapFixtures.writePcap(file, client.linkType(), frames);
        return file;
    }
}

package io.rdmascope.proto.smbdirect;

import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.text.PcapFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.rdmascope.testsupport.ProtocolFixtures.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compounded SMB2 messages in one SMB Direct Data Transfer message ([MS-SMB2] §3.2.4.1.4: each
 * header's NextCommand the 8-byte aligned offset of the next): every header decoded, as tshark 4.0
 * decodes the chain. The built session ({@link SmbDirectCapture}) with a chained request of three
 * ECHOs and its chained response after it.
 */
class SmbDirectCompoundTest {
    private static final int SEND_ONLY = 0x04;
    /** An ECHO is 68 bytes (64-byte header, 4-byte body); the next starts at the 8-byte boundary. */
    private static final int ECHO_STRIDE = 72;
    private static final int CHAINED = 3;

    @TempDir
    Path dir;

    /** {@code CHAINED} ECHOs from message id 20 on, each pointing at the next but the last. */
    private static byte[] chainedEchoes(boolean response) {
        ByteBuffer b = ByteBuffer.allocate(ECHO_STRIDE * (CHAINED - 1) + 68).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < CHAINED; i++) {
            byte[] echo = SmbDirectCapture.echo(response);
            ByteBuffer e = ByteBuffer.wrap(echo).order(ByteOrder.LITTLE_ENDIAN);
            e.putLong(24, 20 + i).putInt(20, i < CHAINED - 1 ? ECHO_STRIDE : 0);
            b.put(ECHO_STRIDE * i, echo);
        }
        return b.array();
    }

    private Path session() throws Exception {
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

    @Test
    @DisplayName("every SMB2 header of a compounded message is decoded, each with its own message id")
    void everyHeaderDecoded() throws Exception {
        List<Dissection> ds = ProtocolFixtures.dissectAll(session());
        Dissection request = ds.get(ds.size() - 2);
        assertEquals("20,21,22", value(request, "smb2.msg_id"));
        assertEquals("13,13,13", value(request, "smb2.cmd"));
        assertEquals("0x00000048,0x00000048,0x00000000", value(request, "smb2.chain_offset"));
        assertEquals("20,21,22", value(ds.get(ds.size() - 1), "smb2.msg_id"));
    }

    @Test
    @DisplayName("tshark 4.0 decodes the same chain: every smb_direct and smb2 field both tools name, and the columns")
    void tsharkParity() throws Exception {
        int compared = SmbDirectParity.assertSameAsTshark(session(), DissectorChain.standard(), List.of());
        assertTrue(compared >= 100, "non-empty values compared: " + compared);
    }
}

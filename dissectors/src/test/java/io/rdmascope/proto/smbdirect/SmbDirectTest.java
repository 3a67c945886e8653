package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.text.ProtoTree;
import io.rdmascope.text.PcapFixtures;
import io.rdmascope.testsupport.ProtocolFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import static io.rdmascope.proto.smbdirect.SmbDirectCapture.FRAME_CREDITS_ONLY;
import static io.rdmascope.proto.smbdirect.SmbDirectCapture.FRAME_ECHO_REQUEST;
import static io.rdmascope.proto.smbdirect.SmbDirectCapture.FRAME_ECHO_RESPONSE;
import static io.rdmascope.proto.smbdirect.SmbDirectCapture.FRAME_NEGOTIATE_REQUEST;
import static io.rdmascope.proto.smbdirect.SmbDirectCapture.FRAME_NEGOTIATE_RESPONSE;
import static io.rdmascope.testsupport.ProtocolFixtures.dissectAll;
import static io.rdmascope.testsupport.ProtocolFixtures.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SMB Direct on RoCEv2, on a session built through the packet builder ({@link SmbDirectCapture}):
 * the values decoded field by field, tshark 4.0 parity on every field both tools name (tshark
 * decodes it by its default heuristic, no Decode As needed), and detection: the CM exchange for port
 * 5445 is required, and nothing in {@code ../shared/captures} or the sample cases is claimed.
 */
class SmbDirectTest {
    /** Where the shifted frames start in their buffer: any offset but 0 would do. */
    private static final int BUFFER_SHIFT = 100;

    @TempDir
    Path dir;

    @Test
    @DisplayName("negotiate, data transfer and SMB2 header fields decode to the values built")
    void decodedValues() throws Exception {
        List<Dissection> ds = dissectAll(SmbDirectCapture.write(dir, SmbDirect.PORT));
        Dissection request = ds.get(FRAME_NEGOTIATE_REQUEST - 1);
        assertEquals("0x0100", value(request, "smb_direct.version.min"));
        assertEquals("0x0100", value(request, "smb_direct.version.max"));
        assertEquals("255", value(request, "smb_direct.credits.requested"));
        assertEquals("", value(request, "smb_direct.credits.granted"));
        assertEquals("1364", value(request, "smb_direct.preferred_send_size"));
        assertEquals("8192", value(request, "smb_direct.max_receive_size"));
        assertEquals("1048576", value(request, "smb_direct.max_fragmented_size"));
        Dissection response = ds.get(FRAME_NEGOTIATE_RESPONSE - 1);
        assertEquals("0x0100", value(response, "smb_direct.version.negotiated"));
        assertEquals("255", value(response, "smb_direct.credits.requested"));
        assertEquals("10", value(response, "smb_direct.credits.granted"));
        assertEquals("0x00000000", value(response, "smb_direct.status"));
        assertEquals("1048576", value(response, "smb_direct.max_read_write_size"));
        assertEquals("1364", value(response, "smb_direct.preferred_send_size"));
        assertEquals("8192", value(response, "smb_direct.max_receive_size"));
        assertEquals("1048576", value(response, "smb_direct.max_fragmented_size"));
        Dissection echo = ds.get(FRAME_ECHO_REQUEST - 1);
        assertEquals("255", value(echo, "smb_direct.credits.requested"));
        assertEquals("1", value(echo, "smb_direct.credits.granted"));
        assertEquals("0x0001", value(echo, "smb_direct.flags"));
        assertEquals("1", value(echo, "smb_direct.flags.response_requested"));
        assertEquals("0", value(echo, "smb_direct.remaining_length"));
        assertEquals("24", value(echo, "smb_direct.data_offset"));
        assertEquals("68", value(echo, "smb_direct.data_length"));
        assertEquals("13", value(echo, "smb2.cmd"));
        assertEquals("7", value(echo, "smb2.msg_id"));
        assertEquals("0x00000000", value(echo, "smb2.flags"));
        assertEquals("", value(echo, "smb2.nt_status")); // a request carries no status
        assertEquals("0x0000100000000021", value(echo, "smb2.sesid"));
        Dissection echoed = ds.get(FRAME_ECHO_RESPONSE - 1);
        assertEquals("0x00000001", value(echoed, "smb2.flags"));
        assertEquals("0x00000000", value(echoed, "smb2.nt_status"));
        assertEquals("1", value(echoed, "smb2.credits.granted"));
        Dissection credits = ds.get(FRAME_CREDITS_ONLY - 1);
        assertEquals("5", value(credits, "smb_direct.credits.granted"));
        assertEquals("0", value(credits, "smb_direct.data_length"));
        assertEquals("", value(credits, "smb2.cmd"));
        assertEquals(List.of("RRoCE", "RRoCE", "RRoCE", "SMBDirect", "SMBDirect", "SMB2", "SMB2", "SMBDirect",
                "SMBDirect", "SMBDirect", "SMB2"), ds.stream().map(d -> PacketSummary.of(d).protocol()).toList());
        assertEquals(List.of("NegotiateRequest", "NegotiateResponse", "KeepAlive Request", "KeepAlive Response",
                "DataMessage", "DataMessage", "DataMessage", "Write Request Len:152 Off:0"),
                ds.subList(3, 11).stream().map(d -> PacketSummary.of(d).info()).toList());
    }

    @Test
    @DisplayName("Data Transfer fragments are reassembled and the SMB2 header is decoded on the whole message")
    void fragmentsReassembled() throws Exception {
        List<Dissection> ds = dissectAll(SmbDirectCapture.write(dir, SmbDirect.PORT));
        assertFragmentsReassembled(ds, SmbDirectCapture.FRAME_FIRST_FRAGMENT);
    }

    /**
     * The WRITE request in three fragments starting at frame {@code first}: the first two show their
     * RemainingLength and data, no SMB2; the last lists the three frames, the whole length, and the
     * SMB2 header read from the reassembled bytes.
     */
    static void assertFragmentsReassembled(List<Dissection> ds, int first) {
        Dissection one = ds.get(first - 1);
        assertEquals(String.valueOf(SmbDirectCapture.FRAGMENTED_LENGTH - SmbDirectCapture.FRAGMENT_SIZES[0]),
                value(one, "smb_direct.remaining_length"));
        assertEquals("", value(one, "smb2.cmd"));
        assertEquals("96", value(one, "data.len"));
        assertEquals("", value(ds.get(first), "smb_direct.fragment"));
        Dissection last = ds.get(first + 1);
        assertEquals("0", value(last, "smb_direct.remaining_length"));
        assertEquals(first + "," + (first + 1) + "," + (first + 2), value(last, "smb_direct.fragment"));
        assertEquals("3", value(last, "smb_direct.fragment.count"));
        assertEquals(String.valueOf(SmbDirectCapture.FRAGMENTED_LENGTH), value(last, "smb_direct.reassembled.length"));
        assertEquals("9", value(last, "smb2.cmd"));
        assertEquals(String.valueOf(SmbDirectCapture.FRAGMENTED_MESSAGE_ID), value(last, "smb2.msg_id"));
        assertEquals("Write Request Len:152 Off:0", PacketSummary.of(last).info());
        assertFalse(ProtoTree.build(last).isEmpty());
    }

    @Test
    @DisplayName("--decode-as infiniband.bth.destqp==Q,smb_direct decodes a session whose CM names another port")
    void decodeAsByQueuePair() throws Exception {
        Path file = SmbDirectCapture.write(dir, 5446);
        DissectorChain both = DissectorChain.standard().withDecodeAs(List.of(
                DecodeAs.parse("infiniband.bth.destqp==0x456,smb_direct"),
                DecodeAs.parse("infiniband.bth.destqp==" + SmbDirectCapture.CLIENT_QPN + ",smb_direct")));
        List<Dissection> ds = dissectAll(file, both);
        assertEquals(List.of("SMBDirect", "SMBDirect", "SMB2", "SMB2", "SMBDirect", "SMBDirect", "SMBDirect", "SMB2"),
                ds.subList(3, 11).stream().map(d -> PacketSummary.of(d).protocol()).toList());
        assertEquals("0x0100", value(ds.get(FRAME_NEGOTIATE_RESPONSE - 1), "smb_direct.version.negotiated"));
        assertFragmentsReassembled(ds, SmbDirectCapture.FRAME_FIRST_FRAGMENT);
        // One side only: the server's QP. The client's SENDs (to it) are decoded, the server's stay data.
        DissectorChain serverOnly = DissectorChain.standard().withDecodeAs(List.of(
                DecodeAs.parse("infiniband.bth.destqp==0x456,smb_direct")));
        List<Dissection> half = dissectAll(file, serverOnly);
        assertEquals(true, claimed(half.get(FRAME_NEGOTIATE_REQUEST - 1)));
        assertEquals(false, claimed(half.get(FRAME_NEGOTIATE_RESPONSE - 1)));
    }

    @Test
    @DisplayName("tshark parity with the same -d infiniband,smb_direct on the session whose CM names port 5446")
    void tsharkParityWithTheSameDecodeAs() throws Exception {
        List<String> option = List.of("-d", "infiniband,smb_direct");
        int compared = SmbDirectParity.assertSameAsTshark(SmbDirectCapture.write(dir, 5446),
                DissectorChain.standard().withDecodeAs(List.of(DecodeAs.parse(option.get(1)))), option);
        assertTrue(compared >= 80, "non-empty values compared: " + compared);
    }

    @Test
    @DisplayName("values and the -V tree hold when frames sit inside a larger buffer, as the CLI maps a capture")
    void framesAtAnOffsetInTheirBuffer() throws Exception {
        Path file = SmbDirectCapture.write(dir, SmbDirect.PORT);
        List<Dissection> plain = dissectAll(file);
        DissectorChain chain = DissectorChain.standard();
        Dissection state = new Dissection();
        List<String> names = List.of("smb_direct.credits.requested", "smb_direct.credits.granted",
                "smb_direct.preferred_send_size", "smb_direct.max_receive_size", "smb_direct.max_fragmented_size",
                "smb_direct.data_length", "smb2.nt_status", "smb2.credits.granted", "smb2.cmd");
        List<Frame> frames = PcapFixtures.read(file);
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.get(i);
            byte[] shifted = new byte[BUFFER_SHIFT + f.capturedLength()];
            f.buffer().get(f.offset(), shifted, BUFFER_SHIFT, f.capturedLength());
            Dissection d = new Dissection();
            d.continueFrom(state);
            chain.dissect(new Frame(f.number(), f.timeNanos(), f.capturedLength(), f.wireLength(), f.linkType(),
                    f.interfaceId(), ByteBuffer.wrap(shifted), BUFFER_SHIFT), d);
            state = d;
            for (String name : names) {
                assertEquals(value(plain.get(i), name), value(d, name), "frame " + (i + 1) + " " + name);
            }
            assertFalse(ProtoTree.build(d).isEmpty()); // the tree reads every field's value
        }
    }

    @Test
    @DisplayName("every smb_direct and smb2 field both tools name, and the columns, equal tshark's on the built session")
    void tsharkParity() throws Exception {
        int compared = SmbDirectParity.assertSameAsTshark(SmbDirectCapture.write(dir, SmbDirect.PORT),
                DissectorChain.standard(), List.of());
        assertTrue(compared >= 80, "non-empty values compared: " + compared);
    }

    @Test
    @DisplayName("the same session on CM port 5446 is not SMB Direct: detection needs the CM service ID")
    void anotherPortIsNotSmbDirect() throws Exception {
        for (Dissection d : dissectAll(SmbDirectCapture.write(dir, 5446))) {
            assertEquals(false, claimed(d), PacketSummary.of(d).info());
        }
    }

    @Test
    @DisplayName("on an SMB Direct connection, a SEND whose bytes [MS-SMBD] does not allow stays data")
    void badContentIsNotClaimed() throws Exception {
        List<byte[]> frames = SmbDirectCapture.frames(SmbDirect.PORT);
        // Reserved bytes 6-7 of the credits-only Data Transfer message (frame 8) set: not a valid message.
        byte[] last = frames.get(FRAME_CREDITS_ONLY - 1).clone();
        int payload = 14 + 20 + 8 + 12; // Ethernet, IPv4, UDP, BTH
        last[payload + 6] = 1;
        frames.set(FRAME_CREDITS_ONLY - 1, last);
        Path file = dir.resolve("bad.pcap");
        PcapFixtures.writePcap(file, 1, frames);
        List<Dissection> ds = dissectAll(file);
        assertEquals(true, claimed(ds.get(FRAME_CREDITS_ONLY - 2)));
        assertEquals(false, claimed(ds.get(FRAME_CREDITS_ONLY - 1)));
    }

    @Test
    @DisplayName("no capture in ../shared/captures and no sample case is taken for SMB Direct")
    void noFalsePositives() throws Exception {
        ProtocolFixtures.Scan scan = ProtocolFixtures.scanForClaims("ulp_smbdirect", d -> claimed(d)
                || PacketSummary.of(d).protocol().equals(SmbDirectInfo.SMBD_COLUMN)
                || PacketSummary.of(d).protocol().equals(SmbDirectInfo.SMB2_COLUMN));
        assertTrue(scan.frames() > 1000, "frames dissected: " + scan.frames());
        assertEquals(List.of(), scan.claimed());
    }

    static boolean claimed(Dissection d) {
        for (int i = 0; i < d.layerCount(); i++) {
            String p = d.layerType(i).protocol().abbrev();
            if (p.equals("smb_direct") || p.equals("smb2")) {
                return true;
            }
        }
        return false;
    }
}

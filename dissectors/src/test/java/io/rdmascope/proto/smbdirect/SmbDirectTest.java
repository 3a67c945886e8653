package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.text.ProtoTree;
import io.rdmascope.text.PcapFixtures;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
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
        assertEquals(List.of("RRoCE", "RRoCE", "RRoCE", "SMBDirect", "SMBDirect", "SMB2", "SMB2", "SMBDirect"),
                ds.stream().map(d -> PacketSummary.of(d).protocol()).toList());
        assertEquals(List.of("NegotiateRequest", "NegotiateResponse", "KeepAlive Request", "KeepAlive Response",
                "DataMessage"), ds.subList(3, 8).stream().map(d -> PacketSummary.of(d).info()).toList());
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
        Tshark.assumeInstalled();
        Path file = SmbDirectCapture.write(dir, SmbDirect.PORT);
        List<String> names = ProtocolFixtures.namesTsharkShares("smb_direct.", "smb2.");
        assertTrue(names.size() >= 25, "fields both tools name: " + names);
        List<String> columns = new ArrayList<>(names);
        columns.add("_ws.col.Protocol");
        columns.add("_ws.col.Info");
        List<String> tshark = Tshark.fields(file, columns.toArray(String[]::new));
        List<Dissection> ours = dissectAll(file);
        assertEquals(ours.size(), tshark.size());
        List<String> problems = new ArrayList<>();
        int compared = 0;
        for (int i = 0; i < ours.size(); i++) {
            String[] theirs = tshark.get(i).split("\t", -1);
            Dissection d = ours.get(i);
            for (int j = 0; j < names.size(); j++) {
                String mine = value(d, names.get(j));
                if (!mine.equals(theirs[j])) {
                    problems.add("frame " + (i + 1) + " " + names.get(j) + ": tshark " + theirs[j] + ", ours " + mine);
                }
                compared += mine.isEmpty() ? 0 : 1;
            }
            if (i + 1 >= FRAME_NEGOTIATE_REQUEST) { // the CM frames' columns are InfiniBand's, tested elsewhere
                PacketSummary.Columns c = PacketSummary.of(d);
                if (!c.protocol().equals(theirs[names.size()]) || !c.info().equals(theirs[names.size() + 1])) {
                    problems.add("frame " + (i + 1) + " columns: tshark " + theirs[names.size()] + " / "
                            + theirs[names.size() + 1] + ", ours " + c.protocol() + " / " + c.info());
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(compared >= 60, "non-empty values compared: " + compared);
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

    private static boolean claimed(Dissection d) {
        for (int i = 0; i < d.layerCount(); i++) {
            String p = d.layerType(i).protocol().abbrev();
            if (p.equals("smb_direct") || p.equals("smb2")) {
                return true;
            }
        }
        return false;
    }
}

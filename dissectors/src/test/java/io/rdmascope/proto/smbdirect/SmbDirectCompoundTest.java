package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.testsupport.ProtocolFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.rdmascope.testsupport.ProtocolFixtures.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compounded SMB2 messages in one SMB Direct Data Transfer message ([MS-SMB2] §3.2.4.1.4: each
 * header's NextCommand the 8-byte aligned offset of the next): every header decoded, as tshark 4.0
 * decodes the chain, on the session {@link SmbDirectCompoundCapture} builds.
 */
class SmbDirectCompoundTest {
    @TempDir
    Path dir;

    private Path session() throws Exception {
        return SmbDirectCompoundCapture.write(dir);
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

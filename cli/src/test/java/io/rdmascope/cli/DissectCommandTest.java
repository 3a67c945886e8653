package io.rdmascope.cli;

import io.rdmascope.capture.PcapWriter;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dissect verb as a tshark user drives it: formats, options in any order, one-line errors. */
class DissectCommandTest {
    private static final Path SAMPLE = Path.of(System.getProperty("rdmascope.root", "..")).resolve(
            "sample-pcaps/captures/roce_v2_mixed.pcapng");

    @Test
    void oneLinePerFrameNamesTheOpcodeQpAndPsn() {
        Cli r = Cli.run("dissect", SAMPLE.toString(), "-c", "3");
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals(3, lines.length);
        assertTrue(lines[0].matches("\\s+1\\s+0\\.000000000 10\\.0\\.0\\.\\d+ → 10\\.0\\.0\\.\\d+ RRoCE \\d+ RC .* "
                + "QP=0x[0-9a-f]{6} PSN=\\d+.*"), lines[0]);
    }

    @Test
    void optionsMayComeBeforeOrAfterTheFileAndDashRWorksAsInTshark() {
        Cli a = Cli.run("dissect", "-T", "fields", "-e", "infiniband.bth.psn", SAMPLE.toString());
        Cli b = Cli.run("dissect", SAMPLE.toString(), "-T", "fields", "-e", "infiniband.bth.psn");
        Cli c = Cli.run("-r", SAMPLE.toString(), "-T", "fields", "-e", "infiniband.bth.psn");
        assertEquals(0, a.status(), a.err());
        assertEquals(a.out(), b.out());
        assertEquals(a.out(), c.out());
        assertEquals(300, a.out().split("\n").length);
    }

    @Test
    void fieldsOutputHonoursHeaderSeparatorAndAggregator() {
        Cli r = Cli.run("dissect", SAMPLE.toString(), "-c", "1", "-T", "fields", "-e", "frame.number", "-e",
                "ip.addr", "-e", "infiniband.invariant.crc.status", "-E", "header=y", "-E", "separator=,",
                "-E", "aggregator=;");
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals("frame.number,ip.addr,infiniband.invariant.crc.status", lines[0]);
        assertTrue(lines[1].matches("1,10\\.0\\.0\\.\\d+;10\\.0\\.0\\.\\d+,1"), lines[1]);
    }

    @Test
    void verboseTreeShowsHeadersFieldsAndIcrcVerdict() {
        Cli r = Cli.run("dissect", SAMPLE.toString(), "-V", "-x", "-c", "1");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("InfiniBand\n    Base Transport Header\n        Opcode: "), r.out());
        assertTrue(r.out().contains("Invariant CRC: 0x"), r.out());
        assertTrue(r.out().contains("[Invariant CRC status: Good (1)]"), r.out()); // a generated line, bracketed
        assertTrue(r.out().contains("\n0000  02 00 00 00 00 0"), r.out());
    }

    @Test
    void jsonIsShapedLikeTsharks() {
        Cli r = Cli.run("dissect", SAMPLE.toString(), "-T", "json", "-c", "2");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("[\n  {\n    \"_index\": \"packets-2026-01-01\""), r.out());
        assertTrue(r.out().contains("\"infiniband.bth_tree\": {"), r.out());
        assertTrue(r.out().contains("\"infiniband.bth.opcode\": \""), r.out());
        Cli e = Cli.run("dissect", SAMPLE.toString(), "-T", "json", "-c", "1", "-e", "infiniband.bth.psn");
        assertTrue(e.out().contains("\"infiniband.bth.psn\": [\n"), e.out());
    }

    @Test
    void tcpFlagsReadLowestBitFirstAsInWireshark() {
        Path capture = io.rdmascope.testsupport.SharedFiles.capture("linlinw5_rdma_write_bw.pcap");
        String[] lines = Cli.run("dissect", capture.toString()).out().split("\n");
        assertTrue(lines[1].contains("[SYN, ACK]"), lines[1]);
        assertTrue(lines[3].contains("[PSH, ACK]"), lines[3]);
        assertTrue(lines[57].contains("[FIN, ACK]"), lines[57]); // frame 58, as tshark shows it
    }

    @Test
    void unknownFieldsAndMissingFilesAreOneLineErrorsWithStatusTwo() {
        Cli unknown = Cli.run("dissect", SAMPLE.toString(), "-T", "fields", "-e", "infiniband.bth.nope");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().startsWith("rdmascope: unknown field: infiniband.bth.nope"), unknown.err());
        Cli missing = Cli.run("dissect", "/no/such/file.pcap");
        assertEquals(2, missing.status());
        assertEquals(1, missing.err().strip().split("\n").length, missing.err());
        assertFalse(missing.err().contains("at io.rdmascope"), missing.err());
    }

    @Test
    void aTruncatedFilePrintsEveryCompleteFrameThenOneErrorNamingOffsetAndFrame(@TempDir Path dir)
            throws Exception {
        Path whole = dir.resolve("whole.pcap");
        try (PcapWriter w = PcapWriter.create(whole, LinkTypes.ETHERNET, 65535, false)) {
            for (int i = 0; i < 3; i++) {
                w.write(1_000_000_000L * i, new byte[60], 60);
            }
        }
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = dir.resolve("cut.pcap");
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 10));
        Cli r = Cli.run("dissect", cut.toString(), "-T", "fields", "-e", "frame.number");
        assertEquals(2, r.status());
        assertEquals("1\n2\n", r.out());
        assertTrue(r.err().contains("cut.pcap") && r.err().contains("frame 3") && r.err().contains("offset"),
                r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
    }
}

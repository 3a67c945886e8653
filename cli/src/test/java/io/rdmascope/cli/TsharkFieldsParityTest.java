package io.rdmascope.cli;

import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.samples.ScenarioCatalog;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The issue-2 differential test: for every real capture, {@code rdmascope dissect -T fields} over every
 * {@code infiniband.*} field that both rdmascope and Wireshark 4.0 know is byte-identical to
 * {@code tshark -T fields}, frame by frame, except for the deliberate differences listed in
 * {@link #deliberateDifference}, each with its reason.
 */
class TsharkFieldsParityTest {

    /** Fields whose values legitimately differ, and why. Keyed by field; the predicate sees tshark's row. */
    private static String deliberateDifference(String field, Map<String, String> tsharkRow,
                                               Map<String, String> ourRow, String capture) {
        if (capture.equals("capture_frames_cut_silently.pcap") && field.equals("infiniband.invariant.crc")) {
            return "frames shorter than their own IP/UDP length though their records claim them whole (issue "
                    + "15): rdmascope treats them as cut and shows no ICRC; tshark shows their last four payload "
                    + "bytes as one";
        }
        if (capture.equals("violation_headers_cut.pcapng") && field.startsWith("infiniband.aeth")) {
            return "an AETH cut by the snap length after two bytes: rdmascope keeps the header with the bytes "
                    + "captured (flagged truncated), tshark shows no AETH";
        }
        String opcode = ourRow.getOrDefault("infiniband.bth.opcode", "");
        if (DC_CAPTURES.contains(capture)) {
            String dc = dcDifference(field, opcode);
            if (dc != null) {
                return dc;
            }
        }
        if ((field.equals("infiniband.reth.va") || field.equals("infiniband.reth.r_key"))
                && (opcode.equals("19") || opcode.equals("20"))) {
            return "Wireshark 4.0 files AtomicETH's VA and R_Key under infiniband.reth.*; rdmascope keeps them "
                    + "with their header as infiniband.atomiceth.va / .r_key";
        }
        if (tsharkRow.get("frame.protocols").contains("rpcordma") && field.equals("infiniband.invariant.crc")) {
            return "Wireshark 4.0's RPC-over-RDMA heuristic claims these SENDs (a false positive: the payload "
                    + "is perftest data) and hands the ICRC to it as payload, so it shows no ICRC";
        }
        if ((field.equals("infiniband.immdt") || field.equals("infiniband.ieth"))
                && tsharkRow.get(field).equals(ourRow.get(field) + "," + ourRow.get(field))) {
            return "Wireshark 4.0 names both the header and its one field " + field + ", so tshark prints the "
                    + "same four bytes twice; rdmascope's header has the name, its value is " + field
                    + (field.endsWith("immdt") ? ".value" : ".r_key");
        }
        int code = opcode.isEmpty() ? -1 : Integer.parseInt(opcode);
        if (code == 0x1C || code == 0x1D) {
            return "Wireshark 4.0 predates IBTA 1.5's FLUSH (0x1C) and ATOMIC WRITE (0x1D) and shows everything "
                    + "after the BTH as infiniband.vendor";
        }
        if (code >= 0xA0 && code < 0xC0) {
            return "Wireshark 4.0 does not decode XRC (opcodes 0xA0-0xBF, IBTA Annex A14) and shows everything "
                    + "after the BTH as infiniband.vendor";
        }
        if (opcode.equals("129")) {
            return "Wireshark 4.0 does not know the RoCEv2 CNP opcode 0x81 (it names 0x80 CNP) and decodes "
                    + "nothing after the BTH";
        }
        return null;
    }

    /** Issue 16: Mellanox DC traffic from a ConnectX NIC (../shared/captures-hard, SOURCES.md). */
    static final String DC_CAPTURE = "magnate3_linux-riscv-dev_dc-small2.pcap";
    /** The generated case written from that capture's layout (issue 16). */
    static final String DC_CASE = "dc_traffic";
    /** Captures of DC traffic: the real one and the generated case, with the same argued differences. */
    private static final java.util.Set<String> DC_CAPTURES = java.util.Set.of(DC_CAPTURE, DC_CASE + ".pcap");

    /** The DC capture's differences, each argued in docs/dc.md ("Parity with tshark"). */
    private static String dcDifference(String field, String opcode) {
        if (field.equals("infiniband.bth")) {
            return "tshark's DC BTH is 20 bytes (BTH + the 8 bytes rdmascope shows as infiniband.dceth)";
        }
        if (field.startsWith("infiniband.mad") || field.equals("infiniband.invariant.crc")) {
            return "tshark takes a packet whose DETH source QP is 0 for a management datagram and parses the DC "
                    + "data as a MAD, which then swallows the ICRC; on the ACKs it leaves 16 bytes unparsed, ICRC "
                    + "included";
        }
        if (opcode.equals("81") && (field.startsWith("infiniband.aeth") || field.startsWith("infiniband.rdeth")
                || field.startsWith("infiniband.deth"))) {
            return "tshark reads a DC ACK's AETH where the requests carry the RDETH (same 24-bit value in both); "
                    + "rdmascope reads RDETH and DETH there as in the requests, then the AETH the packet still has";
        }
        if (opcode.equals("85") && (field.startsWith("infiniband.rdeth") || field.startsWith("infiniband.deth"))) {
            return "on the DC connect tshark skips 16 bytes after its 20-byte BTH as a DCCETH without fields; "
                    + "rdmascope reads RDETH and DETH there, as on every DC packet, and the DCCETH after them";
        }
        return null;
    }

    @Test
    void everyInfinibandFieldOfTheDcCaptureMatchesTsharkOrIsArgued() throws Exception {
        Tshark.assumeInstalled();
        java.nio.file.Path capture = SharedFiles.root().resolve("captures-hard").resolve(DC_CAPTURE);
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(capture),
                "SKIPPED: DC capture not present: " + capture);
        assertEquals(29, compare(List.of(capture)));
        // What tshark has no name for: the DC header and the DCT number of every packet.
        Cli ours = Cli.run("-r", capture.toString(), "-T", "fields", "-e", "infiniband.dceth.dctn",
                "-e", "infiniband.reth.dmalen", "-e", "infiniband.dcceth.access_key", "-c", "4");
        assertEquals(0, ours.status(), ours.err());
        assertEquals(List.of("0x807ff4\t\t", "0x807ff4\t\t", "\t\t0x00000000ffeeddcc", "0x807ff4\t262144\t"),
                List.of(ours.out().split("\n")));
    }

    /**
     * Issue 16: the generated DC case, written from the real capture's layout (docs/dc.md), reads in
     * tshark 4.0 as the real capture does: every shared infiniband.* field equal but for the four
     * argued DC differences, and the DC fields tshark has no name for say what the generator wrote.
     */
    @Test
    void everyInfinibandFieldOfTheGeneratedDcCaseMatchesTsharkOrIsArgued() throws Exception {
        Tshark.assumeInstalled();
        Path capture = GoldenOutputTest.cases().resolve(DC_CASE).resolve(DC_CASE + ".pcap");
        assertEquals(9, compare(List.of(capture)));
        Cli ours = Cli.run("-r", capture.toString(), "-T", "fields", "-e", "infiniband.bth.opcode",
                "-e", "infiniband.dceth.dctn", "-e", "infiniband.reth.dmalen", "-e", "infiniband.dcceth.access_key");
        assertEquals(0, ours.status(), ours.err());
        assertEquals(List.of("85\t\t\t0x00000000ffeeddcc", "81\t0x00391a\t\t", "70\t0x00391a\t2500\t",
                "81\t0x00391a\t\t", "71\t0x00391a\t\t", "72\t0x00391a\t\t", "81\t0x00391a\t\t",
                "74\t0x00391a\t8\t", "81\t0x00391a\t\t"), List.of(ours.out().split("\n")));
    }

    @Test
    void everyInfinibandFieldMatchesTsharkOnEveryRealCapture() throws Exception {
        Tshark.assumeInstalled();
        int infinibandFrames = compare(SharedFiles.allCaptures());
        assertTrue(infinibandFrames > 300, "expected the real captures' RDMA frames, saw " + infinibandFrames);
    }

    /**
     * Issue 3: tshark agrees with every generated scenario capture it can read. Wireshark 4.0 cannot
     * open link type 247 in a pcap file ("network type 247 unknown or unsupported"), so the native-IB
     * pcap scenarios are compared through their ERF twin (native_ib_erf) instead.
     */
    @Test
    void everyInfinibandFieldMatchesTsharkOnEveryGeneratedScenario() throws Exception {
        Tshark.assumeInstalled();
        int infinibandFrames = compare(tsharkReadableScenarioCaptures());
        assertTrue(infinibandFrames > 250, "expected the scenarios' RDMA frames, saw " + infinibandFrames);
    }

    /**
     * tshark 4.0 marks no generated frame malformed but the ones built to be (issue 15). (The snap-length cut in violation_truncated
     * shows "[Malformed Packet]" only in tshark's one-pass summary line, not in its -Y or -T fields
     * passes, so it does not count here.)
     */
    @Test
    void tsharkFindsNoMalformedFrameInAnyGeneratedScenario() throws Exception {
        Tshark.assumeInstalled();
        List<String> malformed = new ArrayList<>();
        for (Path capture : tsharkReadableScenarioCaptures()) {
            String out = Tshark.run(List.of("-r", capture.toString(), "-Y", "_ws.malformed", "-T", "fields",
                    "-e", "frame.number"));
            for (String frame : out.split("\n")) {
                if (!frame.isBlank()) {
                    malformed.add(capture.getFileName() + " frame " + frame.trim());
                }
            }
        }
        // Frames tshark rightly finds malformed: the UDP length of a frame cut without saying so exceeds
        // its IP payload (udp.length.bad), and a packet whose payload plus pad is not whole words. And one
        // it wrongly does: iwarp_shared_msn's 4-byte Send, which tshark's RPC-over-RDMA heuristic takes for
        // an RPCoRDMA header too short to be one, exactly as it does with the real NIC's 4-byte Send in
        // frame 15 of the Wireshark wiki's iwarp_rdma/read capture the case is modelled on (issue 16).
        // Three more it wrongly does in ulp_rpcrdma (issue 19): the two NFSv3 READ replies whose data went
        // into a write chunk (tshark dissects such a reply a second time and fails on the moved data,
        // with or without the opaque's length inline), and the reply to the XID the client reused while
        // its first call was outstanding, which tshark pairs with that first call (a GETATTR) and
        // decodes as its reply although it answers the LOOKUP (docs/tshark-parity.md).
        assertEquals(List.of("iwarp_shared_msn.pcap frame 17", "capture_frames_cut_silently.pcap frame 3", "capture_frames_cut_silently.pcap frame 4",
                "capture_frames_cut_silently.pcap frame 5", "violation_pad_misaligned.pcapng frame 3",
                "ulp_rpcrdma.pcapng frame 17", "ulp_rpcrdma.pcapng frame 52", "ulp_rpcrdma.pcapng frame 60"), malformed);
    }

    /** Every committed scenario capture but the link-type-247 pcaps, which Wireshark 4.0 cannot open. */
    private static List<Path> tsharkReadableScenarioCaptures() {
        List<Path> captures = new ArrayList<>();
        for (ScenarioCatalog.Scenario s : ScenarioCatalog.all()) {
            if (s.format() == ScenarioCatalog.Format.PCAP && !s.wire().encap().name().startsWith("ROCE")) {
                continue;
            }
            captures.add(GoldenOutputTest.cases().resolve(s.name()).resolve(s.name() + "." + s.format().extension()));
        }
        return captures;
    }

    /** Compares every shared infiniband.* field on {@code captures}; returns the RDMA frames seen. */
    private static int compare(List<Path> captures) throws Exception {
        List<String> fields = sharedInfinibandFields();
        assertTrue(fields.size() > 60, "expected the BTH/RETH/AETH/DETH/LRH/GRH/CM fields, got " + fields);
        int compared = 0;
        int infinibandFrames = 0;
        List<String> mismatches = new ArrayList<>();
        List<String> explained = new ArrayList<>();
        for (Path capture : captures) {
            List<String> args = new ArrayList<>(List.of("-r", capture.toString(), "-T", "fields"));
            args.addAll(List.of("-e", "frame.number", "-e", "frame.protocols"));
            for (String f : fields) {
                args.add("-e");
                args.add(f);
            }
            String theirs = Tshark.run(args);
            Cli ours = Cli.run(args.toArray(String[]::new));
            assertEquals(0, ours.status(), ours.err());
            String[] theirLines = theirs.split("\n", -1);
            String[] ourLines = ours.out().split("\n", -1);
            assertEquals(theirLines.length, ourLines.length, capture + ": frame count differs");
            for (int i = 0; i < theirLines.length; i++) {
                if (theirLines[i].isEmpty() && ourLines[i].isEmpty()) {
                    continue;
                }
                Map<String, String> t = row(fields, theirLines[i]);
                Map<String, String> o = row(fields, ourLines[i]);
                if (!o.getOrDefault("infiniband.bth.opcode", "").isEmpty()
                        || !o.getOrDefault("infiniband.lrh.vl", "").isEmpty()) {
                    infinibandFrames++;
                }
                for (String f : fields) {
                    String a = t.get(f);
                    String b = o.get(f);
                    if (!a.isEmpty() || !b.isEmpty()) {
                        compared++;
                    }
                    if (!a.equals(b)) {
                        String why = deliberateDifference(f, t, o, capture.getFileName().toString());
                        String where = capture.getFileName() + " frame " + t.get("frame.number") + " " + f
                                + ": tshark '" + a + "' rdmascope '" + b + "'";
                        if (why == null) {
                            mismatches.add(where);
                        } else {
                            explained.add(where + " — " + why);
                        }
                    }
                }
            }
        }
        System.out.printf("tshark parity: %d infiniband frames, %d field values compared, %d deliberate "
                + "differences, %d mismatches%n", infinibandFrames, compared, explained.size(), mismatches.size());
        explained.stream().limit(10).forEach(e -> System.out.println("  deliberate: " + e));
        assertTrue(mismatches.isEmpty(), mismatches.size() + " mismatches, first: "
                + String.join("\n", mismatches.subList(0, Math.min(40, mismatches.size()))));
        return infinibandFrames;
    }

    /** infiniband.* fields (not bare sub-header nodes of type FT_NONE) known to both tools. */
    static List<String> sharedInfinibandFields() throws IOException {
        FieldRegistry registry = FieldRegistry.standard();
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(SharedFiles.reference("wireshark-fields.tsv"))) {
            String[] cols = line.split("\t");
            if (cols.length < 2 || !cols[0].startsWith("infiniband.") || cols[1].equals("FT_NONE")) {
                continue;
            }
            if (registry.lookup(cols[0]) != null) {
                out.add(cols[0]);
            }
        }
        return out;
    }

    private static Map<String, String> row(List<String> fields, String line) {
        String[] cols = line.split("\t", -1);
        Map<String, String> m = new LinkedHashMap<>();
        m.put("frame.number", cols[0]);
        m.put("frame.protocols", cols.length > 1 ? cols[1] : "");
        for (int i = 0; i < fields.size(); i++) {
            m.put(fields.get(i), i + 2 < cols.length ? cols[i + 2] : "");
        }
        return m;
    }
}

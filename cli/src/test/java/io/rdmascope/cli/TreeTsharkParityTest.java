package io.rdmascope.cli;

import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17: the {@code dissect -V} tree of the InfiniBand and iWARP layers, line by line against
 * {@code tshark -V} (4.0) on the real captures of {@code ../shared/captures} and
 * {@code ../shared/captures-hard}. Both outputs are cut into the top-level blocks whose line starts
 * with "InfiniBand" or "iWARP", per frame, and compared after the argued differences
 * ({@link #argued}, docs/tshark-parity.md) are applied to ours:
 * <ol>
 *   <li>BTH byte 4: IBTA 1.2.1 A10 defines FECN and BECN there; Wireshark 4.0 shows the byte as
 *       {@code Reserved: 00}. We show the two bits and the six reserved bits.</li>
 *   <li>Generated lines (in brackets) tshark 4.0 does not make: our ICRC, VCRC and MPA CRC checks.</li>
 * </ol>
 * Captures not at parity yet are listed in {@link #NOT_YET} with the reason and the number of frames
 * that still differ, as a ceiling: a change that makes more frames differ fails. Skips, saying why,
 * without tshark or the shared captures.
 */
class TreeTsharkParityTest {
    private static final Pattern FRAME = Pattern.compile("^Frame (\\d+):");
    private static final Pattern FECN = Pattern.compile(
            "^( +)0\\.\\.\\. \\.\\.\\.\\. = Forward Explicit Congestion Notification: (True|False)$");

    /** Capture → frames whose IB/iWARP tree still differs, and why (docs/tshark-parity.md). */
    private static final Map<String, Integer> NOT_YET = new LinkedHashMap<>();

    static {
        // CM MADs: Wireshark shows every reserved field of REQ/REP/… and names the IP CM service ID
        // parts in a subtree; value texts of the CM fields differ (docs/tshark-parity.md).
        NOT_YET.put("linlinw5_rdma_cm.pcap", 28);
        NOT_YET.put("linlinw5_rping.pcap", 5);
        NOT_YET.put("sanderw71_RoCE_capture_1_packet__1_.pcapng", 5);
        NOT_YET.put("magnate3_linux-riscv-dev_nvme-discover2.pcap", 5);
        // DETH: tshark 4.0 shows its reserved byte as "Reserved: 00", its generic infiniband.reserved
        // field, which also covers reserved parts of other headers; declaring it for the DETH alone would
        // make -e infiniband.reserved disagree with tshark, so the line is missing from ours.
        NOT_YET.put("linlinw5_pingpong_ud.pcap", 10);
        // Native IB: LRH value names, MADs of every class (SMP, SA) that Wireshark decodes further.
        NOT_YET.put("srinivaskoritala_infiniband.pcap", 43);
        // Mellanox DC: argued in docs/dc.md (tshark reads the opcodes as RD).
        NOT_YET.put("magnate3_linux-riscv-dev_dc-small2.pcap", 29);
        // iWARP with markers: tshark 4.0 reads markers at the absolute sequence number's grid, not the
        // stream's (docs/iwarp.md, RFC 5044 §5), so its marker values and FPDU split differ.
        NOT_YET.put("ajbanjara_Wireshark_iwarp_rdma__read_write_long_run_mrkr.pcap", 34);
    }

    @Test
    @DisplayName("InfiniBand and iWARP trees equal tshark's on the real captures, but for argued differences")
    void realCaptures() throws Exception {
        Tshark.assumeInstalled();
        List<Path> files = new ArrayList<>(SharedFiles.allCaptures());
        Path hard = SharedFiles.root().resolve("captures-hard");
        if (Files.isDirectory(hard)) {
            try (var list = Files.list(hard)) {
                list.filter(p -> p.toString().endsWith(".pcap")).sorted().forEach(files::add);
            }
        } else {
            System.out.println("SKIPPED part: " + hard + " not found; comparing ../shared/captures only");
        }
        List<String> failures = new ArrayList<>();
        int atParity = 0;
        for (Path file : files) {
            Map<Long, List<String>> theirs = blocks(Tshark.run(List.of("-r", file.toString(), "-V")));
            Cli run = Cli.run("dissect", file.toString(), "-V");
            assertEquals(0, run.status(), run.err());
            Map<Long, List<String>> ours = blocks(run.out());
            List<String> differing = new ArrayList<>();
            for (Map.Entry<Long, List<String>> e : theirs.entrySet()) {
                List<String> mine = argued(ours.getOrDefault(e.getKey(), List.of()));
                if (!mine.equals(e.getValue())) {
                    differing.add("frame " + e.getKey() + ": " + firstDifference(e.getValue(), mine));
                }
            }
            String name = file.getFileName().toString();
            Integer ceiling = NOT_YET.get(name);
            System.out.println("tree parity " + name + ": " + theirs.size() + " frames with IB/iWARP, "
                    + differing.size() + " differ" + (differing.isEmpty() ? "" : ", first " + differing.get(0)));
            if (ceiling == null && !differing.isEmpty()) {
                failures.add(name + ": " + differing.size() + " frames differ, first " + differing.get(0));
            } else if (ceiling != null && differing.size() > ceiling) {
                failures.add(name + ": " + differing.size() + " frames differ, more than the " + ceiling
                        + " known; first " + differing.get(0));
            }
            if (differing.isEmpty() && !theirs.isEmpty()) {
                atParity++;
            }
        }
        assertEquals(List.of(), failures);
        assertTrue(atParity >= 12, "captures at parity: " + atParity);
    }

    @Test
    @DisplayName("the allow-list rewrites only the BTH congestion bits and generated lines")
    void arguedDifferencesAreNarrow() {
        List<String> ours = List.of("    Base Transport Header",
                "        Partition Key: 65535",
                "        0... .... = Forward Explicit Congestion Notification: False",
                "        .0.. .... = Backward Explicit Congestion Notification: False",
                "        ..00 0000 = Reserved (6 bits): 0",
                "    Invariant CRC: 0x3612ce8b",
                "        [Invariant CRC status: Good (1)]",
                "        Syndrome: 31, Ack");
        assertEquals(List.of("    Base Transport Header", "        Partition Key: 65535", "        Reserved: 00",
                "    Invariant CRC: 0x3612ce8b", "        Syndrome: 31, Ack"), argued(ours));
        // A set FECN bit is a difference tshark 4.0 would show as Reserved: 80; it is not rewritten.
        List<String> set = List.of("        1... .... = Forward Explicit Congestion Notification: True",
                "        .0.. .... = Backward Explicit Congestion Notification: False",
                "        ..00 0000 = Reserved (6 bits): 0");
        assertEquals(set, argued(set));
    }

    /** Our lines with the argued differences applied, so that what is left must equal tshark's. */
    static List<String> argued(List<String> ours) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ours.size(); i++) {
            String line = ours.get(i);
            Matcher fecn = FECN.matcher(line);
            if (fecn.matches() && i + 2 < ours.size()
                    && ours.get(i + 1).endsWith(".0.. .... = Backward Explicit Congestion Notification: False")
                    && ours.get(i + 2).endsWith("..00 0000 = Reserved (6 bits): 0")) {
                out.add(fecn.group(1) + "Reserved: 00");
                i += 2;
                continue;
            }
            String body = line.strip();
            if (body.startsWith("[") && body.endsWith("]")) {
                continue; // generated: our CRC checks
            }
            out.add(line);
        }
        return out;
    }

    /** Per frame, the lines of the top-level blocks starting "InfiniBand" or "iWARP". */
    static Map<Long, List<String>> blocks(String verbose) {
        Map<Long, List<String>> out = new TreeMap<>();
        long frame = 0;
        boolean keep = false;
        for (String line : verbose.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            if (!line.startsWith(" ")) {
                Matcher m = FRAME.matcher(line);
                if (m.find()) {
                    frame = Long.parseLong(m.group(1));
                }
                keep = line.startsWith("InfiniBand") || line.startsWith("iWARP");
            }
            if (keep) {
                out.computeIfAbsent(frame, k -> new ArrayList<>()).add(line);
            }
        }
        return out;
    }

    private static String firstDifference(List<String> theirs, List<String> ours) {
        for (int i = 0; i < Math.max(theirs.size(), ours.size()); i++) {
            String t = i < theirs.size() ? theirs.get(i) : "(nothing)";
            String o = i < ours.size() ? ours.get(i) : "(nothing)";
            if (!t.equals(o)) {
                return "tshark \"" + t.strip() + "\", ours \"" + o.strip() + "\"";
            }
        }
        return "";
    }
}

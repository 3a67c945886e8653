package io.rdmascope.samples;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.field.FieldType;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.rdmascope.testsupport.ProtocolFixtures.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --decode-as} for the storage protocols on RoCE with no CM exchange captured (issue 19,
 * docs/cli.md "-d"): each ulp_* case with its CM frames removed is decoded as nothing by default, and
 * with the protocol's rule ({@code infiniband,nvme-rdma}, {@code infiniband,iser}, {@code
 * infiniband,rpcordma}, {@code infiniband,smb_direct}) every frame shows every field of the protocol
 * as the whole case, CM included, shows it (frame numbers translated to the shorter capture) — so
 * which QP is whose, and which command a response or transfer serves, came from the traffic alone.
 * Where tshark 4.0 accepts the same rule (iser, rpcordma, smb_direct) its decoding of the capture
 * without CM is compared too.
 */
class UlpDecodeAsTest {
    /** A case, its protocol's {@code -d} name, and the field prefixes of what it carries. */
    private record Case(String name, String protocol, List<String> prefixes) {
        Path capture() {
            return SharedFiles.sampleCases().resolve(name).resolve(name + ".pcapng");
        }

        DissectorChain chain() {
            return DissectorChain.standard().withDecodeAs(List.of(DecodeAs.parse("infiniband," + protocol)));
        }
    }

    private static final List<Case> CASES = List.of(
            new Case("ulp_nvmeof", "nvme-rdma", List.of("nvme-rdma.", "nvme.")),
            new Case("ulp_iser", "iser", List.of("iser.", "iscsi.", "scsi.", "scsi_sbc.")),
            new Case("ulp_rpcrdma", "rpcordma", List.of("rpcordma.", "rpc.", "nfs.")),
            new Case("ulp_smbdirect", "smb_direct", List.of("smb_direct.", "smb2.")));

    @TempDir
    Path dir;

    /** A case without its CM frames, and where each of its frames was in the whole case. */
    private record WithoutCm(Path file, List<Integer> originalFrame, Map<Integer, Integer> newFrame) {
    }

    private WithoutCm withoutCm(Case c) throws IOException {
        Path file = dir.resolve(c.name + "_without_cm.pcap");
        List<Integer> original = ProtocolFixtures.withoutCm(c.capture(), file);
        Map<Integer, Integer> renumbered = new HashMap<>();
        for (int i = 0; i < original.size(); i++) {
            renumbered.put(original.get(i), i + 1);
        }
        assertTrue(original.size() < ProtocolFixtures.dissectAll(c.capture()).size() - 2, c.name + ": CM frames removed");
        return new WithoutCm(file, original, renumbered);
    }

    /** Our field names of the case's protocols, with header abbreviations (tshark's protocol items). */
    private static List<String> names(Case c) {
        List<String> names = new ArrayList<>();
        for (FieldRegistry.Entry e : FieldRegistry.standard().entries()) {
            if ((e instanceof FieldRegistry.FieldEntry || e instanceof FieldRegistry.HeaderEntry)
                    && c.prefixes.stream().anyMatch(e.abbrev()::startsWith)) {
                names.add(e.abbrev());
            }
        }
        return names;
    }

    private static boolean isFrameNumber(String name) {
        return FieldRegistry.standard().lookup(name) instanceof FieldRegistry.FieldEntry f
                && f.field().type() == FieldType.FRAMENUM;
    }

    @TestFactory
    Stream<DynamicTest> withoutCmNothingByDefaultAndTheWholeProtocolWithTheRule() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name, () -> {
            WithoutCm cut = withoutCm(c);
            List<String> names = names(c);
            List<Dissection> plain = ProtocolFixtures.dissectAll(cut.file());
            for (int i = 0; i < plain.size(); i++) {
                for (String name : names) {
                    assertEquals("", value(plain.get(i), name), c.name + " frame " + (i + 1) + " without -d: " + name);
                }
            }
            List<Dissection> whole = ProtocolFixtures.dissectAll(c.capture());
            List<Dissection> decoded = ProtocolFixtures.dissectAll(cut.file(), c.chain());
            List<String> problems = new ArrayList<>();
            int compared = 0;
            for (int i = 0; i < decoded.size(); i++) {
                Dissection reference = whole.get(cut.originalFrame().get(i) - 1);
                for (String name : names) {
                    String expected = value(reference, name);
                    if (isFrameNumber(name) && !expected.isEmpty()) {
                        expected = renumber(expected, cut.newFrame());
                    }
                    String mine = value(decoded.get(i), name);
                    if (!mine.equals(expected)) {
                        problems.add("frame " + (i + 1) + " " + name + ": with CM " + expected + ", with -d " + mine);
                    }
                    compared += mine.isEmpty() ? 0 : 1;
                }
            }
            assertEquals(List.of(), problems.stream().limit(30).toList(), c.name);
            assertTrue(compared >= 200, c.name + ": non-empty values compared: " + compared);
        }));
    }

    /** A frame-number field's value in the capture without CM ("" for a frame that is not in it). */
    private static String renumber(String frames, Map<Integer, Integer> newFrame) {
        List<String> out = new ArrayList<>();
        for (String f : frames.split(",")) {
            Integer n = newFrame.get(Integer.parseInt(f));
            out.add(n == null ? "" : String.valueOf(n));
        }
        return String.join(",", out);
    }

    /**
     * tshark 4.0 with the same rule on the capture without CM: every field both tools name equal on
     * every frame, except where tshark's own decoding of that capture differs from its decoding of the
     * whole case (tshark's iSER and NVMe-oF dissectors keep per-connection state only from CM; NVMe-oF
     * has no Decode As at all, docs/cli.md) or where ours of the whole case already differs from
     * tshark's (each argued in docs/tshark-parity.md and held by UlpCasesTest).
     */
    @TestFactory
    Stream<DynamicTest> tsharkWithTheSameRuleAgrees() {
        return CASES.stream().filter(c -> !c.protocol.equals("nvme-rdma")).map(c -> DynamicTest.dynamicTest(c.name, () -> {
            Tshark.assumeInstalled();
            WithoutCm cut = withoutCm(c);
            List<String> names = ProtocolFixtures.namesTsharkShares(c.prefixes.toArray(String[]::new));
            List<String> theirsCut = Tshark.fields(cut.file(), List.of("-d", "infiniband," + c.protocol),
                    names.toArray(String[]::new));
            List<String> theirsWhole = Tshark.fields(c.capture(), names.toArray(String[]::new));
            List<Dissection> whole = ProtocolFixtures.dissectAll(c.capture());
            List<Dissection> decoded = ProtocolFixtures.dissectAll(cut.file(), c.chain());
            assertEquals(decoded.size(), theirsCut.size());
            List<String> problems = new ArrayList<>();
            int agreed = 0;
            for (int i = 0; i < decoded.size(); i++) {
                int original = cut.originalFrame().get(i);
                String[] cutRow = theirsCut.get(i).split("\t", -1);
                String[] wholeRow = theirsWhole.get(original - 1).split("\t", -1);
                for (int j = 0; j < names.size(); j++) {
                    String name = names.get(j);
                    String mine = value(decoded.get(i), name);
                    if (mine.equals(cutRow[j])) {
                        agreed += mine.isEmpty() ? 0 : 1;
                        continue;
                    }
                    String wholeTheirs = isFrameNumber(name) && !wholeRow[j].isEmpty()
                            ? renumber(wholeRow[j], cut.newFrame()) : wholeRow[j];
                    boolean tsharkNeedsCm = !cutRow[j].equals(wholeTheirs);
                    boolean arguedAlready = !value(whole.get(original - 1), name).equals(wholeRow[j]);
                    if (!tsharkNeedsCm && !arguedAlready) {
                        problems.add("frame " + (i + 1) + " " + name + ": tshark -d " + cutRow[j] + ", ours -d " + mine);
                    }
                }
            }
            assertEquals(List.of(), problems.stream().limit(30).toList(), c.name);
            assertTrue(agreed >= 200, c.name + ": non-empty values agreed: " + agreed);
        }));
    }

    /**
     * {@code infiniband.bth.destqp==Q,nvme-rdma} names one QP: the admin queue's two QPs named, its
     * capsules are decoded and paired as with CM, while the I/O queue's SENDs stay data.
     */
    @TestFactory
    Stream<DynamicTest> aDestinationQpRuleDecodesThatQpOnly() {
        return Stream.of(DynamicTest.dynamicTest("ulp_nvmeof admin queue", () -> {
            Case c = CASES.get(0);
            WithoutCm cut = withoutCm(c);
            List<Dissection> whole = ProtocolFixtures.dissectAll(c.capture());
            // The admin queue's Connect (its first command) names its controller QP, its CQE the host's.
            String controller = value(ProtocolFixtures.dissectAll(cut.file(), c.chain()).get(0), "infiniband.bth.destqp");
            String host = value(ProtocolFixtures.dissectAll(cut.file(), c.chain()).get(2), "infiniband.bth.destqp");
            DissectorChain chain = DissectorChain.standard().withDecodeAs(List.of(
                    DecodeAs.parse("infiniband.bth.destqp==" + controller + ",nvme-rdma"),
                    DecodeAs.parse("infiniband.bth.destqp==" + host + ",nvme-rdma")));
            List<Dissection> decoded = ProtocolFixtures.dissectAll(cut.file(), chain);
            int admin = 0;
            int io = 0;
            for (int i = 0; i < decoded.size(); i++) {
                Dissection reference = whole.get(cut.originalFrame().get(i) - 1);
                String qp = value(decoded.get(i), "infiniband.bth.destqp");
                String cid = value(decoded.get(i), "nvme.cqe.cid") + value(decoded.get(i), "nvme.cmd.cid")
                        + value(decoded.get(i), "nvme.fabrics.cmd.cid");
                String cidWithCm = value(reference, "nvme.cqe.cid") + value(reference, "nvme.cmd.cid")
                        + value(reference, "nvme.fabrics.cmd.cid");
                if (qp.equals(controller) || qp.equals(host)) {
                    assertEquals(cidWithCm, cid, "frame " + (i + 1));
                    admin += cid.isEmpty() ? 0 : 1;
                } else {
                    assertEquals("", cid, "frame " + (i + 1) + " is on the I/O queue, which no rule names");
                    io += cidWithCm.isEmpty() ? 0 : 1;
                }
            }
            assertTrue(admin >= 10 && io >= 10, "admin capsules " + admin + ", I/O capsules left alone " + io);
        }));
    }
}

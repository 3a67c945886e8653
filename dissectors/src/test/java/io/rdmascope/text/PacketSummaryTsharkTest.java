package io.rdmascope.text;

import io.rdmascope.build.CmMad;
import io.rdmascope.build.Frames;
import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.mad.Mad;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The Info, Source and Destination columns of every management datagram, held against tshark 4.0:
 * the committed {@code cm_lifecycle} sample, the real captures in {@code ../shared/captures}, and a
 * capture of synthetic MADs of every class this test writes itself. Each comparison skips, saying
 * why, where tshark (or the shared folder) is absent ({@link Tshark#run} checks).
 *
 * <p>Where our text differs from tshark's on purpose, {@link #expectedFromTshark} says so:
 * <ul>
 *   <li>Subnet Management / Administration: tshark appends the label to its own transport text
 *       ({@code UD Send Only QP=0x000000 SubnGet(SMInfo)}); ours appends the same label to ours
 *       ({@code UD SEND Only QP=0x000000 PSN=489 SubnGet(SMInfo)}).</li>
 *   <li>An attribute tshark cannot name prints as the tail of its fallback text,
 *       {@code SubnGet(bManagement Attribute!)}; ours prints the ID, {@code SubnGet(Unknown 0x0099)}.</li>
 *   <li>Reserved classes: tshark adds {@code [Malformed Packet]} after over-reading the MAD; we do not.</li>
 *   <li>Source of a RoCE ConnectRequest: tshark's first pass shows the REQ's LID
 *       ({@code LID: 65535}), clobbered by its conversation bookkeeping; we show the IP source, as
 *       {@code tshark -2} does, so Source and Destination are compared with {@code tshark -2}.</li>
 * </ul>
 */
class PacketSummaryTsharkTest {
    private static final Pattern TSHARK_TRANSPORT = Pattern.compile("^UD Send Only QP=0x([0-9a-f]{6}) (.*)$");
    private static final Pattern UNKNOWN_ATTRIBUTE = Pattern.compile("b(Management|Administration) Attribute!\\)$");
    private static final String TSHARK_MALFORMED = "[Malformed Packet]";

    static Path repositoryRoot() {
        return SharedFiles.projectRoot();
    }

    @Test
    @DisplayName("cm_lifecycle sample: REQ/REP/RTU/DREQ/DREP and a REJ read as tshark shows them")
    void cmLifecycleSample() throws Exception {
        Path file = repositoryRoot().resolve("sample-pcaps/cases/cm_lifecycle/cm_lifecycle.pcapng");
        Assumptions.assumeTrue(Files.isReadable(file), "SKIPPED: " + file + " not found");
        List<String> infos = compare(file);
        assertEquals(List.of("CM: ConnectRequest", "CM: ConnectReply", "CM: ReadyToUse", "CM: DisconnectRequest",
                "CM: DisconnectReply", "CM: ConnectRequest", "CM: ConnectReject"), infos);
    }

    @Test
    @DisplayName("real captures: every CM, SMP and SA frame reads as tshark shows it")
    void sharedCaptures() throws Exception {
        List<String> all = new ArrayList<>();
        for (Path file : SharedFiles.allCaptures()) {
            all.addAll(compare(file));
        }
        // The shared folder holds rping/perftest CM exchanges over RoCEv2 and an ibdump capture with
        // SMPs (SubnGet(SMInfo)) and SA PathRecord queries: make sure they were all seen.
        assertTrue(all.stream().filter(i -> i.startsWith("CM: ")).count() >= 30, "CM frames: " + all);
        assertTrue(all.stream().anyMatch(i -> i.endsWith(" SubnGet(SMInfo)")), "SMP frames: " + all);
        assertTrue(all.stream().anyMatch(i -> i.endsWith(" SubnAdmGetResp(PathRecord)")), "SA frames: " + all);
    }

    @Test
    @DisplayName("synthetic MADs of every class, method and attribute tshark names, RoCEv2 and native IB")
    void syntheticMadsOfEveryClass(@TempDir Path dir) throws Exception {
        byte[] mac = Frames.hex("02000000000a");
        List<byte[]> roce = new ArrayList<>();
        List<byte[]> ib = new ArrayList<>();
        int psn = 100;
        for (byte[] mad : syntheticMads()) {
            int managementClass = mad[1] & 0xFF;
            boolean smi = managementClass == Mad.CLASS_SUBN_LID_ROUTED
                    || managementClass == Mad.CLASS_SUBN_DIRECTED_ROUTE;
            RocePacket r = RocePacket.v2Ipv4(mac, mac, new byte[]{10, 0, 0, 1}, new byte[]{10, 0, 0, 2}).psn(psn)
                    .gsiMad(mad);
            RocePacket n = RocePacket.nativeIb(4, 1).psn(psn++).gsiMad(mad);
            if (smi) {
                r.destQp(0).set(InfiniBand.DETH_SRCQP, 0);
                n.vl(15).destQp(0).set(InfiniBand.DETH_SRCQP, 0);
            }
            roce.add(r.build());
            ib.add(erfInfiniBand(n.build()));
        }
        Path roceFile = dir.resolve("mads-roce.pcap");
        PcapFixtures.writePcap(roceFile, LinkTypes.ETHERNET, roce);
        assertEquals(roce.size(), compare(roceFile).size(), "MAD frames compared in " + roceFile.getFileName());
        // tshark 4.0 reads no link type 247 (DLT_INFINIBAND); native IB goes in ERF records, as ibdump writes it.
        Path ibFile = dir.resolve("mads-ib-erf.pcap");
        PcapFixtures.writePcap(ibFile, LinkTypes.ERF, ib);
        assertEquals(ib.size(), compare(ibFile).size(), "MAD frames compared in " + ibFile.getFileName());
    }

    /** A native IB packet in an ERF record of type 21 (INFINIBAND), varying length, no extension header. */
    private static byte[] erfInfiniBand(byte[] packet) {
        ByteBuffer b = ByteBuffer.allocate(16 + packet.length);
        b.order(ByteOrder.LITTLE_ENDIAN).putLong(0); // timestamp
        b.order(ByteOrder.BIG_ENDIAN).put((byte) 21).put((byte) 0x04).putShort((short) (16 + packet.length))
                .putShort((short) 0).putShort((short) packet.length);
        return b.put(packet).array();
    }

    /** CM messages as CmMad builds them, then every class × method × attribute worth a label. */
    private static List<byte[]> syntheticMads() {
        List<byte[]> mads = new ArrayList<>();
        byte[] gid = new byte[16];
        mads.add(CmMad.req(new CmMad.Request(1, 2, 3, 4, 3, 1, 1, 17, 7, 7, gid, gid, 7174, null, null, 5)));
        mads.add(CmMad.rep(1, 2, 3, 4, 5, 1, 1, 7, 6));
        mads.add(CmMad.rtu(1, 2, 3));
        mads.add(CmMad.rej(1, 2, 3, 28));
        mads.add(CmMad.dreq(1, 2, 3, 4));
        mads.add(CmMad.drep(1, 2, 3));
        for (int attribute = 0; attribute <= 0x1C; attribute++) {
            mads.add(mad(Mad.CLASS_CM, 0x03, attribute));
        }
        mads.add(mad(Mad.CLASS_CM, 0x03, 0xFFFF));
        int[] smpMethods = {0x01, 0x02, 0x05, 0x07, 0x81, 0x44};
        int[] smpAttributes = {0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B,
            0x1C, 0x20, 0x30, 0x31, 0x99};
        for (int managementClass : new int[]{Mad.CLASS_SUBN_LID_ROUTED, Mad.CLASS_SUBN_DIRECTED_ROUTE}) {
            for (int method : smpMethods) {
                for (int attribute : smpAttributes) {
                    mads.add(mad(managementClass, method, attribute));
                }
            }
        }
        int[] saMethods = {0x01, 0x02, 0x06, 0x12, 0x13, 0x14, 0x15, 0x81, 0x86, 0x92, 0x94, 0x95, 0x44};
        int[] saAttributes = {0x01, 0x02, 0x03, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x20, 0x30,
            0x31, 0x33, 0x35, 0x36, 0x38, 0x39, 0x3A, 0x3B, 0xF3, 0x77};
        for (int method : saMethods) {
            for (int attribute : saAttributes) {
                mads.add(mad(Mad.CLASS_SUBN_ADM, method, attribute));
            }
        }
        for (int attribute : new int[]{0x01, 0x12, 0x1D, 0x16, 0xFFFF}) {
            mads.add(mad(Mad.CLASS_PERF_MGMT, 0x01, attribute));
        }
        for (int managementClass = 0; managementClass <= 0xFF; managementClass++) {
            mads.add(mad(managementClass, 0x01, 0x0012));
        }
        return mads;
    }

    private static byte[] mad(int managementClass, int method, int attributeId) {
        return PacketSummaryMadTest.mad(managementClass, method, attributeId);
    }

    /**
     * Compares every MAD frame of {@code file} with tshark and returns our Info of each. The frames
     * tshark decodes a MAD in must be the frames we do.
     */
    private static List<String> compare(Path file) throws Exception {
        Map<Long, String[]> onePass = tsharkMadFrames(file, false);
        // The second pass only for Source/Destination, and only where there is a MAD to compare.
        Map<Long, String[]> twoPass = onePass.isEmpty() ? Map.of() : tsharkMadFrames(file, true);
        List<String> ours = new ArrayList<>();
        TreeSet<Long> ourMadFrames = new TreeSet<>();
        List<String> mismatches = new ArrayList<>();
        for (Frame f : PcapFixtures.read(file)) {
            Dissection d = new Dissection();
            Frames.CHAIN.dissect(f, d);
            if (d.find(Mad.HEADER) < 0) {
                continue;
            }
            ourMadFrames.add(f.number());
            PacketSummary.Columns c = PacketSummary.of(d);
            ours.add(c.info());
            String[] t = onePass.get(f.number());
            String[] t2 = twoPass.get(f.number());
            String where = file.getFileName() + " frame " + f.number();
            if (t == null) {
                continue; // reported below as a set difference
            }
            if (t2 == null) {
                mismatches.add(where + ": a MAD in tshark's first pass but not in its second");
                continue;
            }
            String expected = expectedFromTshark(t[1], Integer.decode(t[2]), Long.parseLong(t[3]));
            if (!expected.equals(c.info())) {
                mismatches.add(where + " Info: tshark \"" + t[1] + "\" → expected \"" + expected + "\", ours \""
                        + c.info() + "\"");
            }
            if (!t2[4].equals(c.source()) || !t2[5].equals(c.destination())) {
                mismatches.add(where + " Source/Destination: tshark -2 \"" + t2[4] + " → " + t2[5] + "\", ours \""
                        + c.source() + " → " + c.destination() + "\"");
            }
            if (!t[4].equals(t2[4]) && !t[1].equals("CM: ConnectRequest")) {
                mismatches.add(where + ": tshark's one-pass Source \"" + t[4]
                        + "\" differs from its second pass on a frame that is not a ConnectRequest");
            }
        }
        TreeSet<Long> onlyTshark = new TreeSet<>(onePass.keySet());
        onlyTshark.removeAll(ourMadFrames);
        TreeSet<Long> onlyOurs = new TreeSet<>(ourMadFrames);
        onlyOurs.removeAll(onePass.keySet());
        assertTrue(onlyTshark.isEmpty() && onlyOurs.isEmpty(), file.getFileName() + ": frames holding a MAD for "
                + "tshark only " + first(onlyTshark) + ", for us only " + first(onlyOurs));
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " mismatches, first ones:\n  "
                    + String.join("\n  ", mismatches.subList(0, Math.min(20, mismatches.size()))));
        }
        return ours;
    }

    private static String first(TreeSet<Long> frames) {
        return frames.size() <= 10 ? frames.toString() : frames.stream().limit(10).toList() + " and "
                + (frames.size() - 10) + " more";
    }

    /**
     * What our Info should be for a MAD frame tshark shows as {@code tsharkInfo}: the same text but
     * for the deliberate differences listed in the class comment.
     */
    static String expectedFromTshark(String tsharkInfo, int attributeId, long psn) {
        String info = tsharkInfo;
        if (info.startsWith("RESERVED ") && info.endsWith(TSHARK_MALFORMED)) {
            info = info.substring(0, info.length() - TSHARK_MALFORMED.length());
        }
        Matcher unknown = UNKNOWN_ATTRIBUTE.matcher(info);
        if (unknown.find()) {
            info = info.substring(0, unknown.start()) + String.format("Unknown 0x%04x)", attributeId);
        }
        Matcher transport = TSHARK_TRANSPORT.matcher(info);
        if (transport.matches()) {
            info = "UD SEND Only QP=0x" + transport.group(1) + " PSN=" + psn + " " + transport.group(2);
        }
        return info;
    }

    /** By frame number: number, Info, attribute ID, PSN, Source, Destination of tshark's MAD frames. */
    private static Map<Long, String[]> tsharkMadFrames(Path file, boolean twoPass) throws Exception {
        List<String> args = new ArrayList<>(List.of("-r", file.toString()));
        if (twoPass) {
            args.add("-2");
        }
        args.addAll(List.of("-T", "fields", "-E", "occurrence=f", "-e", "frame.number", "-e", "_ws.col.Info",
                "-e", "infiniband.mad.attributeid", "-e", "infiniband.bth.psn", "-e", "_ws.col.Source",
                "-e", "_ws.col.Destination", "-e", "infiniband.mad.mgmtclass"));
        Map<Long, String[]> out = new TreeMap<>();
        for (String line : Tshark.run(args).split("\n")) {
            String[] cols = line.split("\t", -1);
            if (cols.length >= 7 && !cols[6].isEmpty()) {
                out.put(Long.parseLong(cols[0]), cols);
            }
        }
        return out;
    }

    @Test
    @DisplayName("the tshark-to-ours mapping itself: transport text, unknown attributes, reserved classes")
    void expectedFromTsharkMapping() {
        assertEquals("CM: ConnectRequest", expectedFromTshark("CM: ConnectRequest", 0x10, 5));
        assertEquals("UD SEND Only QP=0x000000 PSN=489 SubnGet(SMInfo)",
                expectedFromTshark("UD Send Only QP=0x000000 SubnGet(SMInfo)", 0x20, 489));
        assertEquals("UD SEND Only QP=0x000001 PSN=7 SubnAdmGet(Unknown 0x0077)",
                expectedFromTshark("UD Send Only QP=0x000001 SubnAdmGet(bAdministration Attribute!)", 0x77, 7));
        assertEquals("RESERVED (Unknown Attribute)",
                expectedFromTshark("RESERVED (Unknown Attribute)[Malformed Packet]", 1, 1));
    }
}

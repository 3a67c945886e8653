package io.rdmascope.filter;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.frame.Frame;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Differential test of the filter language: for every expression below, which tshark 4.0 also
 * understands, the frames {@code rdmascope} passes are exactly the frames {@code tshark -Y} passes.
 *
 * <p>The captures (scenario captures, the README sample and, when {@code ../shared} is there, real
 * ones) are joined into one pcapng so that each expression costs one tshark run. A frame that the
 * two dissectors split into different protocols (Wireshark's RPC-over-RDMA heuristic on a perftest
 * payload, frames tshark calls malformed) is left out: what differs there is dissection, which
 * {@code TsharkFieldsParityTest} covers, not the filter language. Skipped, saying so, without tshark.
 */
class TsharkParityTest {
    /** Expressions tshark 4.0.17 also accepts; together they cover every operator and literal form. */
    static final List<String> EXPRESSIONS = List.of(
            // existence, protocols, headers
            "infiniband", "infiniband.aeth", "infiniband.reth", "!infiniband.reth", "udp", "ipv6", "vlan",
            "infiniband.deth", "infiniband.grh", "infiniband.mad", "tcp", "infiniband.atomiceth",
            // integers: bases, relations, word operators, quantifiers
            "infiniband.bth.opcode == 4", "infiniband.bth.opcode eq 0x04", "infiniband.bth.opcode == 0b100",
            "infiniband.bth.opcode == 010", "infiniband.bth.opcode != 17", "infiniband.bth.opcode ne 17",
            "infiniband.bth.psn > 0x100", "infiniband.bth.psn >= 1000 && infiniband.bth.psn <= 2000",
            "infiniband.bth.psn lt 100 || infiniband.bth.psn ge 16000000", "infiniband.bth.destqp > 0x1000",
            "infiniband.bth.padcnt > 0", "infiniband.bth.p_key == 0xffff", "infiniband.aeth.msn > 2",
            "infiniband.aeth.syndrome.opcode == 3", "infiniband.aeth.syndrome.opcode != 0",
            "infiniband.aeth.syndrome.opcode == Nak", "infiniband.aeth.syndrome.opcode in {Ack, Nak}",
            "infiniband.bth.opcode == \"Reliable Connection (RC) - SEND Only\"",
            "infiniband.aeth.syndrome.error_code == \"PSN Sequence Error\"", "ip.proto == \"UDP\"",
            "ip.dsfield.ecn == \"Congestion Experienced\"", "infiniband.aeth.syndrome.opcode > Ack",
            "infiniband.aeth.syndrome.credit_count == 31", "infiniband.reth.dmalen > 4096",
            "infiniband.mad.attributeid == 0x0010", "infiniband.deth.srcqp > 0", "ip.ttl < 64",
            "ip.dsfield.ecn == 3", "ip.dsfield.dscp != 0", "ip.id > 0x1000", "udp.srcport > 50000",
            "udp.dstport == 4791", "udp.length > 1000", "tcp.port == 18515", "tcp.len > 0",
            "eth.type == 0x0800", "eth.type == IPv4", "vlan.id == 100", "frame.len > 1000",
            "frame.len == 62 or frame.len == 74", "frame.len == '>'", "frame.cap_len < frame.len",
            "frame.len == frame.cap_len",
            // sets and ranges
            "infiniband.bth.opcode in {6, 7, 8}", "infiniband.bth.opcode in {0..5, 17}",
            "infiniband.bth.opcode not in {0..5, 17}", "infiniband.reth.dmalen in {1024..65536}",
            "frame.number in {1..3, 20..22, 300..400}", "udp.port in {4791}", "ip.src in {10.0.0.1, 10.0.0.3}",
            "ip.src in {10.0.0.2..10.0.0.4}",
            // booleans
            "infiniband.bth.a == 1", "infiniband.bth.a == True", "infiniband.bth.a == false",
            "infiniband.bth.se", "infiniband.bth.se == 0", "ip.flags.df == 1", "tcp.flags.syn == 1",
            "infiniband.bth.a == ip.flags.df",
            // addresses and the quantifiers on two-valued fields
            "ip.addr == 10.0.0.1", "ip.addr != 10.0.0.1", "ip.addr !== 10.0.0.1", "ip.addr ~= 10.0.0.1",
            "ip.addr === 10.0.0.2", "ip.addr all_eq 10.0.0.2", "ip.addr any_ne 10.0.0.2",
            "ip.src == 10.0.0.0/24", "ip.dst == 10.0.0.2/31", "ip.src != 10.0.0.0/31", "ip.src > 10.0.0.1",
            "ip.src <= 10.0.0.3/31", "ip.src == ip.dst", "ip.src < ip.dst", "eth.dst == eth.src",
            "eth.addr == 02:1e:67:00:00:01", "eth.src == 02-1e-67-00-00-01", "eth.src == 021e.6700.0001",
            "eth.src == 021e67000002", "eth.dst == ff:ff:ff:ff:ff:ff", "ipv6.src == fd00::1",
            "ipv6.addr == fd00::/16", "ipv6.src >= fd00::2", "ipv6.addr != fd00::1",
            "infiniband.grh.sgid == fe80::/10",
            // bytes: slices, contains, byte-string forms
            "eth.src[0:3] == 02:1e:67", "eth.src[3:3] == 00:00:01", "eth.src[-1] == 01", "eth.src[5:] == 02",
            "eth.src[4-5] == 00:01", "eth.src[0,5] == 02:01", "eth.src[0:2][1] == 1e", "eth.src[:1] == 02",
            "frame[0:2] == 02:1e", "frame[12:2] == 08:00", "ip[9] == 11", "ip.src[0] == 0a",
            "ip.src == frame[26:4]", "infiniband.reth[12:4] == 00:00:10:00", "infiniband[0:1] == 04",
            "frame[0:3] == 021e67", "frame[0:3] == 02.1e67", "eth.dst[0] & 01", "ip.src[0:2] >= 0a:00",
            "udp contains 12:b7", "udp contains \"\\x12\\xb7\"", "infiniband contains 00:00:10:00",
            "infiniband.bth contains 80", "infiniband.bth contains 0x80", "eth.src contains 67",
            "frame contains \"abc\"",
            // strings, regular expressions
            "frame.protocols contains \"data\"", "frame.protocols matches \"infiniband$\"",
            "frame.protocols matches \"INFINIBAND$\"", "frame.protocols ~ \"(?-i)DATA\"",
            "frame.protocols == \"eth:ethertype:ip:udp:infiniband\"", "frame.protocols > \"eth:ethertype:ip:udp:infiniband\"",
            "frame.protocols contains \"d\\x61ta\"", "upper(frame.protocols) contains \"DATA\"",
            // times
            "frame.time_relative >= 0.00002", "frame.time_delta < 0.000001", "frame.time_relative > -1",
            "frame.time_epoch > 1700000000.5", "frame.time > \"2020-01-01 00:00:00\"",
            "frame.time < \"Jan  1, 2026 00:00:00.000010\"",
            // functions and arithmetic
            "len(infiniband) > 100", "len(eth.src) == 6", "len(infiniband.reth) == 16", "count(ip.addr) == 2",
            "count(infiniband.bth) == 1 && frame.len < 70", "infiniband.bth.opcode & 0x10",
            "infiniband.bth.opcode & 0x10 == 0", "infiniband.bth.opcode bitwise_and 0x1f == 0x11",
            "tcp.flags & 0x02", "udp.length - 8 > 1000", "frame.len * 2 > 2000", "frame.len % 100 == 62",
            "frame.len / 2 == 31", "infiniband.bth.psn + 1 == 2", "-frame.len < -1000",
            "{infiniband.bth.opcode & 0x10} == 0", "frame.len + udp.length > 2000",
            "infiniband.bth.psn == 0xe922eb + 1",
            // logic and precedence
            "not (infiniband.bth.opcode == 17 or infiniband.reth)",
            "infiniband.bth.opcode == 17 and not infiniband.aeth.syndrome.opcode == 0",
            "infiniband.bth.opcode == 4 || infiniband.bth.opcode == 10 && infiniband.bth.se",
            "tcp and ip or udp", "not udp or udp", "!(ip.src == 10.0.0.1)", "!ip.src == 10.0.0.1",
            "ip.addr#1 == 10.0.0.1", "ip.addr#2 == 10.0.0.1", "ip.addr#[1-2] == 10.0.0.1", "not not infiniband",
            "udp.port in {udp.srcport, 1}", "ip.dst in {ip.src}", "ip.src in {ip.dst, 10.0.0.1}");

    private static final DissectorChain CHAIN = DissectorChain.standard();

    @TempDir
    static Path temp;
    private static Path merged;
    /** Merged frame number to "capture frame N", for messages. */
    private static final Map<Long, String> ORIGIN = new LinkedHashMap<>();
    /** Frames the two dissectors split into different protocols. */
    private static final Set<Long> DISSECTED_DIFFERENTLY = new TreeSet<>();
    private static int frames;

    @BeforeAll
    static void buildCorpus() throws Exception {
        Tshark.assumeInstalled();
        List<Path> captures = new ArrayList<>();
        for (String name : List.of("rc_loss_nak", "congestion_ecn", "cm_lifecycle", "roce_v2_vlan", "roce_v2_ipv6",
                "roce_v1", "psn_wrap", "rc_read", "rc_rnr", "rc_write", "violation_truncated")) {
            captures.add(Captures.sample(name));
        }
        captures.add(Captures.sample("captures/roce_v2_mixed.pcapng"));
        Path shared = SharedFiles.root().resolve("captures");
        for (String name : List.of("linlinw5_rdma_write_bw.pcap", "linlinw5_rdma_cm.pcap",
                "linlinw5_pingpong_ud.pcap", "linlinw5_rping.pcap")) {
            if (Files.isReadable(shared.resolve(name))) {
                captures.add(shared.resolve(name));
            }
        }
        merged = temp.resolve("corpus.pcapng");
        List<Frame> all = new ArrayList<>();
        for (Path capture : captures) {
            for (Frame f : Captures.read(capture)) {
                all.add(f);
                ORIGIN.put((long) all.size(), capture.getFileName() + " frame " + f.number());
            }
        }
        writePcapng(merged, all);
        frames = all.size();

        // Frames whose protocol stacks differ between the two dissectors are not the filter's business.
        String[] theirs = tshark(List.of("-n", "-r", merged.toString(), "-T", "fields", "-e", "frame.protocols"))
                .split("\n");
        assertEquals(frames, theirs.length, "tshark read a different number of frames");
        FieldRegistry.Entry protocols = FieldRegistry.standard().lookup("frame.protocols");
        Dissection d = new Dissection();
        AsciiSink ours = new AsciiSink(256);
        long n = 0;
        for (Frame f : Captures.read(merged)) {
            CHAIN.dissect(f, d);
            ours.clear();
            FieldText.appendOccurrences(ours, protocols, d, ',', FieldText.Occurrence.ALL);
            if (!ours.toString().equals(theirs[(int) n])) {
                DISSECTED_DIFFERENTLY.add(n + 1);
            }
            n++;
        }
    }

    @Test
    void everyExpressionPassesTheFramesTsharkPasses() throws Exception {
        assertTrue(EXPRESSIONS.size() >= 40, "the brief asks for 40 or more expressions");
        assertTrue(frames > 300, "corpus too small: " + frames);
        assertTrue(DISSECTED_DIFFERENTLY.size() * 10 < frames, "too many frames dissected differently to "
                + "compare: " + DISSECTED_DIFFERENTLY.size() + " of " + frames);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
        try {
            Map<String, Future<String>> tshark = new LinkedHashMap<>();
            for (String e : EXPRESSIONS) {
                tshark.put(e, pool.submit(() -> tshark(List.of("-n", "-r", merged.toString(), "-Y", e, "-T",
                        "fields", "-e", "frame.number"))));
            }
            List<String> mismatches = new ArrayList<>();
            int nonTrivial = 0;
            for (Map.Entry<String, Future<String>> t : tshark.entrySet()) {
                String expression = t.getKey();
                Set<Long> theirs = new TreeSet<>();
                for (String line : t.getValue().get().split("\n")) {
                    if (!line.isBlank()) {
                        theirs.add(Long.parseLong(line.strip()));
                    }
                }
                Set<Long> ours = new TreeSet<>(Captures.matching(merged, DisplayFilter.compile(expression)));
                theirs.removeAll(DISSECTED_DIFFERENTLY);
                ours.removeAll(DISSECTED_DIFFERENTLY);
                if (theirs.size() > 0 && theirs.size() < frames - DISSECTED_DIFFERENTLY.size()) {
                    nonTrivial++;
                }
                if (!ours.equals(theirs)) {
                    mismatches.add(expression + ": " + describe(theirs, ours));
                }
            }
            assertEquals(List.of(), mismatches, "filters that pass other frames than tshark -Y");
            assertTrue(nonTrivial * 2 > EXPRESSIONS.size(), "most expressions should split the corpus, only "
                    + nonTrivial + " do");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * tshark's stdout ({@link Tshark#run} checks the installation on every call, which doubles the
     * cost of this test's hundreds of runs).
     */
    private static String tshark(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("tshark");
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("tshark failed (exit " + (p.isAlive() ? "timeout" : p.exitValue()) + "): "
                    + command);
        }
        return out;
    }

    private static String describe(Set<Long> theirs, Set<Long> ours) {
        Set<Long> onlyTheirs = new TreeSet<>(theirs);
        onlyTheirs.removeAll(ours);
        Set<Long> onlyOurs = new TreeSet<>(ours);
        onlyOurs.removeAll(theirs);
        return "only tshark passes " + origins(onlyTheirs) + "; only rdmascope passes " + origins(onlyOurs);
    }

    private static List<String> origins(Set<Long> merged) {
        List<String> out = new ArrayList<>();
        for (Long n : merged) {
            if (out.size() == 5) {
                out.add("… (" + merged.size() + " in all)");
                break;
            }
            out.add(ORIGIN.get(n));
        }
        return out;
    }

    /** Little-endian pcapng, nanosecond timestamps, one interface per link type. */
    private static void writePcapng(Path file, List<Frame> frames) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            ByteBuffer shb = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN);
            shb.putInt(0x0A0D0D0A).putInt(28).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0)
                    .putLong(-1).putInt(28);
            out.write(shb.array());
            List<Integer> linkTypes = new ArrayList<>();
            Set<Integer> seen = new HashSet<>();
            for (Frame f : frames) {
                if (seen.add(f.linkType())) {
                    linkTypes.add(f.linkType());
                    ByteBuffer idb = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
                    idb.putInt(1).putInt(32).putShort((short) f.linkType()).putShort((short) 0).putInt(0)
                            .putShort((short) 9).putShort((short) 1).put((byte) 9).put(new byte[3])
                            .putInt(0).putInt(32);
                    out.write(idb.array());
                }
            }
            for (Frame f : frames) {
                int padded = (f.capturedLength() + 3) & ~3;
                ByteBuffer epb = ByteBuffer.allocate(32 + padded).order(ByteOrder.LITTLE_ENDIAN);
                epb.putInt(6).putInt(32 + padded).putInt(linkTypes.indexOf(f.linkType()))
                        .putInt((int) (f.timeNanos() >>> 32)).putInt((int) f.timeNanos())
                        .putInt(f.capturedLength()).putInt(f.wireLength());
                for (int i = 0; i < f.capturedLength(); i++) {
                    epb.put(f.get(i));
                }
                epb.position(28 + padded);
                epb.putInt(32 + padded);
                out.write(epb.array());
            }
        }
    }
}

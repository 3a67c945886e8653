package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.text.PcapFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19, point 3: MPA is found by its Request on any port, and nothing else is taken for it. On
 * every real capture ({@code ../shared/captures}, the iWARP ones of {@code ../shared/captures-hard})
 * and every sample case, the frames that get iWARP layers are checked against an account kept here
 * from the bytes alone: a TCP connection is MPA from the segment whose payload starts with "MPA ID
 * Req Frame" or "MPA ID Rep Frame" (RFC 5044 §7.1) on; no frame outside such a connection may be
 * claimed, and every such Request or Reply must be.
 */
class MpaDetectionTest {
    private static final List<String> HARD_IWARP = List.of("ajbanjara_Wireshark_iwarp_rdma__read.pcap",
            "ajbanjara_Wireshark_iwarp_rdma__read_write_long_run_mrkr.pcap");

    @Test
    @DisplayName("on every real capture and sample case, iWARP layers appear only on connections with a captured MPA Request or Reply")
    void onlyConnectionsWithAStartupFrameAreClaimed() throws IOException {
        List<Path> files = new ArrayList<>(SharedFiles.allCaptures());
        for (String name : HARD_IWARP) {
            files.add(SharedFiles.hardCapture(name));
        }
        try (Stream<Path> cases = Files.walk(SharedFiles.sampleCases(), 2)) {
            cases.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted()
                    .forEach(files::add);
        }
        int startups = 0;
        int claimedFrames = 0;
        List<String> problems = new ArrayList<>();
        for (Path file : files) {
            DissectorChain chain = DissectorChain.standard();
            Dissection d = new Dissection();
            Set<String> mpaConnections = new HashSet<>();
            for (Frame f : PcapFixtures.read(file)) {
                chain.dissect(f, d);
                String connection = connection(d);
                boolean startup = connection != null
                        && (startsWith(d, Mpa.KEY_REQUEST) || startsWith(d, Mpa.KEY_REPLY));
                if (startup) {
                    mpaConnections.add(connection);
                    startups++;
                }
                boolean claimed = hasIwarpLayer(d);
                claimedFrames += claimed ? 1 : 0;
                if (claimed && (connection == null || !mpaConnections.contains(connection))) {
                    problems.add(file.getFileName() + " frame " + f.number() + ": iWARP without an MPA Request or Reply");
                }
                if (startup && d.find(Mpa.REQUEST) < 0 && d.find(Mpa.REPLY) < 0) {
                    problems.add(file.getFileName() + " frame " + f.number() + ": MPA Request or Reply not found");
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(startups >= 20 && claimedFrames >= 100, "Requests and Replies " + startups + ", claimed frames " + claimedFrames);
    }

    /** The frame's TCP connection as both endpoints in a fixed order, or null when it has no TCP over IP. */
    private static String connection(Dissection d) {
        int tcp = d.find(Transport.TCP);
        int ip = d.find(Ip.IPV4) >= 0 ? d.find(Ip.IPV4) : d.find(Ip.IPV6);
        if (tcp < 0 || ip < 0) {
            return null;
        }
        int at = d.layerStart(ip);
        boolean v4 = d.layerType(ip) == Ip.IPV4;
        String src = v4 ? hex(d, at + 12, 4) : hex(d, at + 8, 16);
        String dst = v4 ? hex(d, at + 16, 4) : hex(d, at + 24, 16);
        String a = src + ":" + d.u16(d.layerStart(tcp));
        String b = dst + ":" + d.u16(d.layerStart(tcp) + 2);
        return a.compareTo(b) < 0 ? a + "-" + b : b + "-" + a;
    }

    private static String hex(Dissection d, int at, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(String.format("%02x", d.u8(at + i)));
        }
        return sb.toString();
    }

    private static boolean startsWith(Dissection d, byte[] key) {
        int tcp = d.find(Transport.TCP);
        int payload = d.layerStart(tcp) + ((d.u8(d.layerStart(tcp) + 12) >> 4) & 0xF) * 4;
        if ((d.u8(d.layerStart(tcp) + 13) & 0x02) != 0 || payload + key.length > d.capturedLength()) {
            return false;
        }
        for (int i = 0; i < key.length; i++) {
            if (d.u8(payload + i) != key[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasIwarpLayer(Dissection d) {
        for (int i = 0; i < d.layerCount(); i++) {
            var p = d.layerType(i).protocol();
            if (p == Mpa.PROTOCOL || p == DdpRdmap.DDP_PROTOCOL || p == DdpRdmap.RDMAP_PROTOCOL) {
                return true;
            }
        }
        return false;
    }
}

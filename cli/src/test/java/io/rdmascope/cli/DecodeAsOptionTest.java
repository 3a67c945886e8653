package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapWriter;
import io.rdmascope.frame.Frame;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code -d}/{@code --decode-as} (tshark's syntax) on every verb that dissects a capture: a bad rule
 * is one usage line naming what is accepted, and a rule changes the decoding (RoCEv2 moved to UDP port
 * 4792 by rewriting a sample case). What each protocol's rule decodes is tested in the dissectors.
 */
class DecodeAsOptionTest {
    private static final List<String> VERBS = List.of("dissect", "summary", "messages", "flows", "check", "explain");
    /** Ethernet (14) and IPv4 (20) headers, then the UDP destination port. */
    private static final int UDP_DEST_PORT_AT = 14 + 20 + 2;

    @Test
    @DisplayName("every verb that dissects refuses an unknown table or protocol in one line naming the accepted ones")
    void badRuleIsAUsageError() {
        for (String verb : VERBS) {
            for (String bad : List.of("foo==1,bar", "tcp.port==5445,nvme", "tcp.port==x,smb_direct")) {
                Cli r = Cli.run(verb, "-d", bad, CheckCommandTest.file("rc_send"));
                assertEquals(2, r.status(), verb + " " + bad + ": " + r.err());
                assertEquals(1, r.err().strip().split("\n").length, r.err());
                assertTrue(r.err().startsWith("rdmascope: invalid --decode-as: ")
                        && r.err().contains("accepted: infiniband,iser|nvme-rdma|rpcordma|smb_direct; "
                        + "infiniband.bth.destqp==VALUE,iser|nvme-rdma|rpcordma|smb_direct; "
                        + "tcp.port==VALUE,iwarp_mpa|smb_direct; udp.port==VALUE,infiniband"), r.err());
            }
        }
    }

    @Test
    @DisplayName("-d udp.port==4792,infiniband decodes RoCEv2 moved to port 4792 on every verb, as --roce-port does")
    void udpPortRuleOnEveryVerb(@TempDir Path dir) throws IOException {
        Path moved = movedToPort4792(dir);
        Cli plain = Cli.run("dissect", "-T", "fields", "-e", "udp.dstport", "-e", "infiniband.bth.opcode",
                moved.toString());
        Cli decoded = Cli.run("dissect", "-T", "fields", "-e", "udp.dstport", "-e", "infiniband.bth.opcode",
                "-d", "udp.port==4792,infiniband", moved.toString());
        assertEquals(0, decoded.status(), decoded.err());
        assertTrue(plain.out().lines().allMatch("4792\t"::equals), plain.out());
        assertTrue(decoded.out().lines().allMatch(l -> l.matches("4792\t\\d+")), decoded.out());
        for (String verb : VERBS) {
            Cli withRule = Cli.run(verb, "--decode-as", "udp.port==4792,infiniband", moved.toString());
            Cli withPort = Cli.run(verb, "--roce-port", "4792", moved.toString());
            Cli without = Cli.run(verb, moved.toString());
            assertEquals(withPort.status(), withRule.status(), verb + ": " + withRule.err());
            assertEquals(withPort.out().replace("--roce-port 4792", ""),
                    withRule.out().replace("--decode-as udp.port==4792,infiniband", ""), verb);
            assertNotEquals(without.out(), withRule.out(), verb);
        }
    }

    /** The rc_send case with every frame's UDP destination port 4791 rewritten to 4792. */
    private static Path movedToPort4792(Path dir) throws IOException {
        List<Frame> frames = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(CheckCommandTest.capture("rc_send"))) {
            Frame f;
            while ((f = source.next()) != null) {
                byte[] bytes = new byte[f.capturedLength()];
                f.buffer().get(f.offset(), bytes);
                assertEquals(4791, ((bytes[UDP_DEST_PORT_AT] & 0xFF) << 8) | (bytes[UDP_DEST_PORT_AT + 1] & 0xFF));
                bytes[UDP_DEST_PORT_AT + 1] = (byte) 0xB8; // 4792 = 0x12B8
                frames.add(Frame.of(f.number(), f.timeNanos(), f.linkType(), bytes));
            }
        }
        Path file = dir.resolve("rc_send_4792.pcap");
        try (PcapWriter w = PcapWriter.create(file, frames.get(0).linkType(), PcapWriter.DEFAULT_SNAPLEN, true)) {
            for (Frame f : frames) {
                w.write(f);
            }
        }
        return file;
    }
}

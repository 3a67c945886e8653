package io.rdmascope.dissect;

import io.rdmascope.build.RocePacket;
import io.rdmascope.frame.Frame;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.Tshark;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.text.PcapFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --decode-as} rules (tshark's {@code -d}): the syntax, the chain refusing what no package
 * declared with one line naming what is accepted, and a udp.port rule moving RoCEv2 to another port.
 * The protocols' own rules are tested in their packages (SMB Direct, iWARP).
 */
class DecodeAsTest {
    private static final byte[] MAC_A = {2, 0, 0, 0, 0, 1};
    private static final byte[] MAC_B = {2, 0, 0, 0, 0, 2};
    private static final byte[] IP_A = {10, 0, 0, 1};
    private static final byte[] IP_B = {10, 0, 0, 2};

    @Test
    @DisplayName("tshark's forms parse: TABLE==VALUE,PROTOCOL in decimal or hex, TABLE=VALUE, and TABLE,PROTOCOL")
    void parsesTsharkSyntax() {
        assertEquals(new DecodeAs("tcp.port", 5445, "smb_direct"), DecodeAs.parse("tcp.port==5445,smb_direct"));
        assertEquals(new DecodeAs("infiniband.bth.destqp", 0x12, "smb_direct"),
                DecodeAs.parse(" infiniband.bth.destqp==0x12 , SMB_Direct "));
        assertEquals(new DecodeAs("udp.port", 4792, "infiniband"), DecodeAs.parse("udp.port=4792,infiniband"));
        assertEquals(new DecodeAs("infiniband", DecodeAs.ALL, "smb_direct"), DecodeAs.parse("infiniband,smb_direct"));
        assertEquals("tcp.port==5445,smb_direct", DecodeAs.parse("tcp.port==5445,smb_direct").toString());
        assertEquals("infiniband,smb_direct", DecodeAs.parse("infiniband,smb_direct").toString());
    }

    @Test
    @DisplayName("a rule that does not parse says what is wrong")
    void malformedRules() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DecodeAs.parse("tcp.port==5445"))
                .getMessage().contains("TABLE==VALUE,PROTOCOL"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DecodeAs.parse("tcp.port==x1,smb_direct"))
                .getMessage().contains("not a number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DecodeAs.parse("tcp.port==-1,smb_direct"))
                .getMessage().contains("not a number"));
    }

    @Test
    @DisplayName("an unknown table or protocol, or a value out of range, is refused with one line naming what is accepted")
    void chainRefusesWhatNoPackageDeclared() {
        DissectorChain chain = DissectorChain.standard();
        String accepted = "accepted: infiniband,iser|nvme-rdma|rpcordma|smb_direct; "
                + "infiniband.bth.destqp==VALUE,iser|nvme-rdma|rpcordma|smb_direct; "
                + "tcp.port==VALUE,iwarp_mpa|smb_direct; udp.port==VALUE,infiniband";
        assertEquals(accepted, chain.decodeAsUsage());
        assertEquals("unknown table 'sctp.port'; " + accepted, refused(chain, "sctp.port==1,smb_direct"));
        assertEquals("protocol 'nvme' is not one tcp.port can be decoded as; " + accepted,
                refused(chain, "tcp.port==4420,nvme"));
        assertEquals("'udp.port==70000,infiniband': udp.port takes a value from 0 to 65535 "
                + "(udp.port==VALUE,PROTOCOL)", refused(chain, "udp.port==70000,infiniband"));
        assertEquals("'infiniband==18,smb_direct': infiniband takes no value (write infiniband,smb_direct)",
                refused(chain, "infiniband==18,smb_direct"));
        assertTrue(refused(chain, "infiniband.bth.destqp==0x1000000,smb_direct").contains("0 to 16777215"));
        assertTrue(refused(chain, "tcp.port,smb_direct").contains("takes a value"));
    }

    @Test
    @DisplayName("udp.port==4792,infiniband decodes RoCEv2 on UDP port 4792, which is data without it")
    void udpPortRuleMovesRoce() {
        byte[] bytes = RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B).udpDestPort(4792).opcode(4).destQp(0x12)
                .payload(new byte[16]).build();
        Frame frame = Frame.of(1, 0, 1, bytes);
        Dissection plain = new Dissection();
        DissectorChain.standard().dissect(frame, plain);
        assertEquals("UDP", PacketSummary.of(plain).protocol());
        DissectorChain chain = DissectorChain.standard()
                .withDecodeAs(List.of(DecodeAs.parse("udp.port==4792,infiniband")));
        Dissection decoded = new Dissection();
        chain.dissect(frame, decoded);
        assertEquals("RRoCE", PacketSummary.of(decoded).protocol());
        assertTrue(chain.isRocePort(4792) && chain.isRocePort(DissectorChain.ROCE_V2_PORT));
        // The rule survives the chain's other settings, and is not counted twice.
        DissectorChain raw = chain.withRelativeTcpSequenceNumbers(false);
        assertTrue(raw.isRocePort(4792) && raw.isRocePort(DissectorChain.ROCE_V2_PORT));
        assertEquals(false, raw.withRelativeTcpSequenceNumbers(true).isRocePort(4793));
    }

    @Test
    @DisplayName("tshark parity with the same -d udp.port==4792,infiniband: every infiniband field both name, every frame")
    void udpPortRuleMatchesTshark(@TempDir Path dir) throws Exception {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            frames.add(RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B).udpDestPort(4792).opcode(4).destQp(0x12)
                    .psn(100 + i).ackReq(i == 3).payload(new byte[8 * (i + 1)]).build());
        }
        Path file = dir.resolve("roce4792.pcap");
        PcapFixtures.writePcap(file, 1, frames);
        String rule = "udp.port==4792,infiniband";
        List<String> names = ProtocolFixtures.namesTsharkShares("infiniband.bth.", "udp.");
        assertTrue(names.size() >= 15, "names: " + names);
        List<String> theirs = Tshark.fields(file, List.of("-d", rule), names.toArray(String[]::new));
        List<String> ours = ProtocolFixtures.eachFrame(file,
                DissectorChain.standard().withDecodeAs(List.of(DecodeAs.parse(rule))),
                d -> String.join("\t", names.stream().map(n -> ProtocolFixtures.value(d, n)).toList()));
        assertEquals(theirs, ours);
        int destQp = names.indexOf("infiniband.bth.destqp");
        assertTrue(destQp >= 0 && ours.stream().noneMatch(line -> line.split("\t", -1)[destQp].isEmpty()),
                "the BTH is decoded on every frame: " + ours);
        // Without the rule tshark leaves the BTH undecoded too: the comparison is about the rule.
        assertTrue(Tshark.fields(file, List.of(), "infiniband.bth.destqp").stream().allMatch(String::isEmpty));
    }

    @Test
    @DisplayName("rules on one selector for protocols of two layers both hold; the payload table matches by QP or whole")
    void rulesCombine() {
        DissectorChain chain = DissectorChain.standard().withDecodeAs(List.of(
                DecodeAs.parse("tcp.port==5446,iwarp_mpa"), DecodeAs.parse("tcp.port==5446,smb_direct"),
                DecodeAs.parse("infiniband.bth.destqp==0x12,smb_direct")));
        assertTrue(chain.isDecodedAs(DecodeAs.TCP_PORT, 5446, "iwarp_mpa"));
        assertTrue(chain.isDecodedAs(DecodeAs.TCP_PORT, 5446, "smb_direct"));
        assertEquals(false, chain.isDecodedAs(DecodeAs.TCP_PORT, 5445, "smb_direct"));
        assertTrue(chain.isPayloadDecodedAs(0x12, "smb_direct"));
        assertEquals(false, chain.isPayloadDecodedAs(0x13, "smb_direct"));
        DissectorChain all = DissectorChain.standard().withDecodeAs(List.of(DecodeAs.parse("infiniband,smb_direct")));
        assertTrue(all.isPayloadDecodedAs(0x13, "smb_direct"));
        assertEquals(false, DissectorChain.standard().isPayloadDecodedAs(0x13, "smb_direct"));
    }

    private static String refused(DissectorChain chain, String spec) {
        return assertThrows(IllegalArgumentException.class,
                () -> chain.withDecodeAs(List.of(DecodeAs.parse(spec)))).getMessage();
    }
}

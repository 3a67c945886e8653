package io.rdmascope.replay;

import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.Mad;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToLongBiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The replay's fixed-offset reads give what the field declarations give: a declaration moved or
 * re-masked without the read following it fails here, not as a silent change in the analysis.
 */
class HeaderReadsTest {
    private record Read(Field field, ToLongBiFunction<ByteBuffer, Integer> read) {
    }

    private static Read u8(Field f, int offset) {
        return new Read(f, (b, at) -> HeaderReads.u8(b, at + offset));
    }

    private static Read u16(Field f, int offset) {
        return new Read(f, (b, at) -> HeaderReads.u16(b, at + offset));
    }

    private static Read u24(Field f, int offset) {
        return new Read(f, (b, at) -> HeaderReads.u24(b, at + offset));
    }

    private static Read u32(Field f, int offset) {
        return new Read(f, (b, at) -> HeaderReads.u32(b, at + offset));
    }

    /** Every field PacketFacts reads, with the read it uses. */
    private static final List<Read> READS = List.of(
            u32(Ip.V4_SRC, HeaderReads.IPV4_SOURCE), u32(Ip.V4_DST, HeaderReads.IPV4_DESTINATION),
            u16(Ip.V4_ID, HeaderReads.IPV4_ID),
            u16(Transport.UDP_SRCPORT, HeaderReads.UDP_SOURCE_PORT), u16(Transport.UDP_LENGTH, HeaderReads.UDP_LENGTH),
            u16(InfiniBand.LRH_SLID, HeaderReads.LRH_SLID), u16(InfiniBand.LRH_DLID, HeaderReads.LRH_DLID),
            new Read(InfiniBand.LRH_PKTLEN, HeaderReads::lrhPacketLength),
            new Read(InfiniBand.GRH_TCLASS, HeaderReads::grhTrafficClass),
            u16(InfiniBand.GRH_PAYLEN, HeaderReads.GRH_PAYLOAD_LENGTH),
            u24(InfiniBand.BTH_DESTQP, HeaderReads.BTH_DEST_QP), u24(InfiniBand.BTH_PSN, HeaderReads.BTH_PSN),
            new Read(InfiniBand.BTH_A, (b, at) -> HeaderReads.bthAckRequest(b, at) ? 1 : 0),
            u8(InfiniBand.AETH_SYNDROME, HeaderReads.AETH_SYNDROME), u24(InfiniBand.AETH_MSN, HeaderReads.AETH_MSN),
            new Read(InfiniBand.RETH_VA, (b, at) -> HeaderReads.u64(b, at + HeaderReads.RETH_VA)),
            u32(InfiniBand.RETH_R_KEY, HeaderReads.RETH_R_KEY), u32(InfiniBand.RETH_DMALEN, HeaderReads.RETH_DMA_LENGTH),
            u24(InfiniBand.DETH_SRCQP, HeaderReads.DETH_SOURCE_QP),
            u32(InfiniBand.IMMDT_VALUE, HeaderReads.WHOLE_WORD), u32(InfiniBand.IETH_R_KEY, HeaderReads.WHOLE_WORD),
            u24(InfiniBand.XRCETH_XRCSRQ, HeaderReads.XRCETH_SRQ),
            u8(Mad.MGMT_CLASS, HeaderReads.MAD_CLASS), u16(Mad.ATTRIBUTE_ID, HeaderReads.MAD_ATTRIBUTE));

    @Test
    void everyReadEqualsItsFieldDeclarationOnRandomBytes() {
        Random random = new Random(18);
        byte[] bytes = new byte[96];
        for (int round = 0; round < 2_000; round++) {
            random.nextBytes(bytes);
            ByteBuffer b = ByteBuffer.wrap(bytes);
            int at = random.nextInt(32);
            for (Read r : READS) {
                assertEquals(r.field().read(b, at), r.read().applyAsLong(b, at), r.field().abbrev() + " at " + at);
            }
            assertEquals(Ip.V4_DSFIELD.read(b, at) & 3, HeaderReads.ipv4Ecn(b, at), "ECN of ip.dsfield at " + at);
        }
    }

    @Test
    void eachHeaderTypeTheReplayReadsHasItsOwnKindAndEveryOtherTypeNone() {
        Map<HeaderType, Integer> kinds = Map.ofEntries(Map.entry(Ip.IPV4, HeaderReads.IPV4),
                Map.entry(Ip.IPV6, HeaderReads.IPV6), Map.entry(Transport.UDP, HeaderReads.UDP),
                Map.entry(InfiniBand.LRH, HeaderReads.LRH), Map.entry(InfiniBand.GRH, HeaderReads.GRH),
                Map.entry(InfiniBand.BTH, HeaderReads.BTH), Map.entry(InfiniBand.AETH, HeaderReads.AETH),
                Map.entry(InfiniBand.RETH, HeaderReads.RETH), Map.entry(InfiniBand.DETH, HeaderReads.DETH),
                Map.entry(InfiniBand.IMMDT, HeaderReads.IMMDT), Map.entry(InfiniBand.IETH, HeaderReads.IETH),
                Map.entry(InfiniBand.XRCETH, HeaderReads.XRCETH), Map.entry(Mad.HEADER, HeaderReads.MAD));
        List<HeaderType> none = List.of(InfiniBand.ICRC_HEADER, InfiniBand.PAD, InfiniBand.ATOMICETH,
                InfiniBand.ATOMICACKETH, InfiniBand.VCRC_HEADER, Transport.TCP);
        kinds.forEach((type, kind) -> assertEquals(kind, HeaderReads.kind(type), type.abbrev()));
        Cm.HEADERS.forEach(cm -> assertEquals(HeaderReads.CM, HeaderReads.kind(cm), cm.abbrev()));
        none.forEach(other -> assertEquals(HeaderReads.OTHER, HeaderReads.kind(other), other.abbrev()));
    }
}

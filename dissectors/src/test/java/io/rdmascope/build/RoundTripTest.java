package io.rdmascope.build;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.frame.FrameFields;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcode;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.rdmascope.build.RandomPackets.Variant;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Builder and dissector agree on every defined opcode: what the builder writes into each field of
 * the BTH and of each extension header the opcode table names, the dissector reads back, in the
 * layers the table promises, with the payload and pad where they belong.
 */
class RoundTripTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(Variant.class)
    @DisplayName("every defined opcode round-trips every BTH and extension-header field through builder and dissector")
    void everyOpcodeRoundTrips(Variant variant) {
        Random rng = new Random(0x5EED_0000L + variant.ordinal());
        List<Opcode> opcodes = Opcodes.defined();
        assertTrue(opcodes.size() >= 88, "defined opcodes: " + opcodes.size()); // RC 25, UC 12, RD 23, UD 2, CNP 2, XRC 24
        for (Opcode op : opcodes) {
            RandomPackets.Case c = RandomPackets.random(op, variant, rng);
            BuiltPacket p = c.packet().buildPacket();
            Dissection d = Frames.dissect(p);
            String what = c + " -> " + Frames.layerNames(d);

            assertFalse(d.isMalformed(), what);
            boolean seClear = (d.u8(d.rdma().bthStart + 1) & 0x80) == 0;
            assertEquals(expectedLayers(variant, op, c.payload().length, seClear), Frames.layerTypes(d), what);
            for (ExpectedHeader h : c.headers()) {
                int layer = d.find(h.type);
                assertFieldsReadBack(d, layer, h, what);
            }
            assertEquals(c.payload().length, d.rdma().payloadLength, what);
            assertEquals(c.padCount(), d.rdma().padCount, what);
            assertEquals(p.payloadAt(), d.rdma().payloadStart, what);
            assertEquals(op.code(), d.rdma().opcode, what);
            if (c.payload().length > 0) {
                int data = d.find(Data.HEADER);
                byte[] read = new byte[d.layerLength(data)];
                d.buffer().get(d.layerAt(data), read);
                assertArrayEquals(c.payload(), read, what);
            }
        }
    }

    /** Every field of the header reads back what the test's model expects, and is present when it should be. */
    static void assertFieldsReadBack(Dissection d, int layer, ExpectedHeader h, String what) {
        assertTrue(layer >= 0, h.type + " missing: " + what);
        for (Field f : h.type.fields()) {
            if (f.isComputed() || f.length() == Field.REST_OF_HEADER) {
                continue;
            }
            String where = f.abbrev() + " in " + what;
            assertEquals(expectedPresence(f, h), f.isPresent(d, layer), "presence of " + where);
            if (f.type() == FieldType.BYTES || f.type() == FieldType.IPV6 || f.length() > 8) {
                byte[] read = new byte[f.length()];
                d.buffer().get(d.layerAt(layer) + f.offset(), read);
                assertArrayEquals(h.expectedBytes(f), read, where);
            } else {
                assertEquals(h.expected(f), f.read(d.buffer(), d.layerAt(layer)), where);
            }
        }
    }

    /** The AETH's 5-bit value shows under one name per syndrome kind (wire-formats.md section 4); others always. */
    static boolean expectedPresence(Field f, ExpectedHeader h) {
        if (h.type != InfiniBand.AETH) {
            return true;
        }
        long kind = h.expected(InfiniBand.AETH_SYNDROME_OPCODE);
        if (f == InfiniBand.AETH_CREDIT_COUNT) {
            return kind == InfiniBand.AETH_ACK;
        }
        if (f == InfiniBand.AETH_TIMER) {
            return kind == InfiniBand.AETH_RNR_NAK;
        }
        if (f == InfiniBand.AETH_RESERVED_VALUE) {
            return kind == InfiniBand.AETH_RESERVED;
        }
        if (f == InfiniBand.AETH_ERROR_CODE) {
            return kind == InfiniBand.AETH_NAK;
        }
        return true;
    }

    /** The layers a packet of {@code op} must dissect into. */
    static List<HeaderType> expectedLayers(Variant variant, Opcode op, int payloadLength, boolean seClear) {
        List<HeaderType> out = new ArrayList<>();
        out.add(FrameFields.HEADER);
        switch (variant) {
            case ROCE_V2_IPV4 -> out.addAll(List.of(Ethernet.HEADER, Ethernet.ETHERTYPE, Ip.IPV4, Transport.UDP));
            case ROCE_V2_IPV4_VLAN -> out.addAll(List.of(Ethernet.HEADER, Ethernet.VLAN, Ethernet.VLAN,
                    Ethernet.ETHERTYPE, Ip.IPV4, Transport.UDP));
            case ROCE_V2_IPV6 -> out.addAll(List.of(Ethernet.HEADER, Ethernet.ETHERTYPE, Ip.IPV6, Transport.UDP));
            case ROCE_V1 -> out.addAll(List.of(Ethernet.HEADER, Ethernet.ETHERTYPE, InfiniBand.GRH));
            case IB_LOCAL -> out.add(InfiniBand.LRH);
            case IB_GLOBAL -> out.addAll(List.of(InfiniBand.LRH, InfiniBand.GRH));
        }
        out.add(InfiniBand.BTH);
        // Over RoCE the RD opcodes are Mellanox DC (docs/dc.md); 0x55 with SE clear is a DC connect.
        boolean dc = op.service() == io.rdmascope.proto.ib.Service.RD && !variant.isNative();
        out.addAll(dc ? io.rdmascope.proto.ib.Opcodes.dc(op.code(), seClear).headers() : op.headers());
        if (payloadLength > 0) {
            out.add(Data.HEADER);
        }
        if ((4 - payloadLength % 4) % 4 > 0) {
            out.add(InfiniBand.PAD);
        }
        out.add(InfiniBand.ICRC_HEADER);
        if (variant.isNative()) {
            out.add(InfiniBand.VCRC_HEADER);
        }
        return out;
    }
}

package io.rdmascope.proto.mad;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Builds MAD frames byte by byte for the tests: a 256-byte MAD with its common header, wrapped in
 * RoCEv2 (IPv4 or IPv6) or native InfiniBand, and reads fields back from the dissection.
 */
final class MadFrames {
    /** CM data starts 24 bytes into the MAD; CM field offsets are counted from there. */
    static final int CM = 24;

    private MadFrames() {
    }

    /** A MAD with its common header filled in and zeros after it. */
    static byte[] mad(int managementClass, int method, int attributeId, long transactionId) {
        byte[] mad = new byte[Mad.MAD_SIZE];
        mad[0] = 1; // base version
        mad[1] = (byte) managementClass;
        mad[2] = (byte) (managementClass == Mad.CLASS_CM || managementClass == Mad.CLASS_SUBN_ADM ? 2 : 1);
        mad[3] = (byte) method;
        put(mad, 8, 8, transactionId);
        put(mad, 16, 2, attributeId);
        return mad;
    }

    /** A CM MAD (class 0x07, method Send) of attribute {@code attributeId}. */
    static byte[] cm(int attributeId) {
        return mad(Mad.CLASS_CM, 0x03, attributeId, 0x0000_0002_6dc5_c06eL);
    }

    /** Writes {@code width} big-endian bytes of {@code value} at {@code offset}. */
    static void put(byte[] bytes, int offset, int width, long value) {
        for (int i = width - 1; i >= 0; i--) {
            bytes[offset + i] = (byte) value;
            value >>>= 8;
        }
    }

    /** Writes at a CM data offset ("MAD offset − 24"), as the CM tables count. */
    static void putCm(byte[] mad, int cmOffset, int width, long value) {
        put(mad, CM + cmOffset, width, value);
    }

    static void putCm(byte[] mad, int cmOffset, byte[] value) {
        System.arraycopy(value, 0, mad, CM + cmOffset, value.length);
    }

    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s+", ""));
    }

    /** Ethernet + IPv4 + UDP 4791 + BTH (UD SEND Only to QP1) + DETH + the MAD + a 4-byte ICRC. */
    static byte[] roceV2Ipv4(byte[] mad) {
        byte[] ib = ibTransport(mad);
        ByteBuffer b = ByteBuffer.allocate(14 + 20 + 8 + ib.length);
        ethernet(b, 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + 8 + ib.length)).putShort((short) 0x2532)
                .putShort((short) 0x4000).put((byte) 64).put((byte) 17).putShort((short) 0)
                .put(new byte[]{10, 1, 16, 62}).put(new byte[]{10, 1, 16, 61});
        udp(b, ib.length);
        return b.put(ib).array();
    }

    /** As {@link #roceV2Ipv4} over IPv6. */
    static byte[] roceV2Ipv6(byte[] mad) {
        byte[] ib = ibTransport(mad);
        ByteBuffer b = ByteBuffer.allocate(14 + 40 + 8 + ib.length);
        ethernet(b, 0x86DD);
        b.putInt(0x6000_0000).putShort((short) (8 + ib.length)).put((byte) 17).put((byte) 64)
                .put(hex("fe80000000000000025056fffea77d03")).put(hex("fe80000000000000025056fffea7129f"));
        udp(b, ib.length);
        return b.put(ib).array();
    }

    /** Native InfiniBand from the LRH (link next header = IBA local): LRH BTH DETH MAD ICRC VCRC. */
    static byte[] nativeIb(byte[] mad) {
        byte[] ib = ibTransport(mad);
        int packetLength = 8 + ib.length; // LRH through ICRC
        ByteBuffer b = ByteBuffer.allocate(packetLength + 2);
        b.put((byte) 0xF0).put((byte) 0x02).putShort((short) 4).putShort((short) (packetLength / 4))
                .putShort((short) 1);
        return b.put(ib).putShort((short) 0x0f36).array();
    }

    private static byte[] ibTransport(byte[] mad) {
        ByteBuffer b = ByteBuffer.allocate(12 + 8 + mad.length + 4);
        b.put((byte) 0x64).put((byte) 0).putShort((short) 0xFFFF).putInt(0x0000_0001).putInt(0x8000_0006);
        b.putInt(0x8001_0000).putInt(0x0000_0001); // DETH: Q_Key, source QP 1
        return b.put(mad).putInt(0x64e6_3802).array();
    }

    private static void ethernet(ByteBuffer b, int etherType) {
        b.put(hex("005056a7129f")).put(hex("005056a77d03")).putShort((short) etherType);
    }

    private static void udp(ByteBuffer b, int payloadLength) {
        b.putShort((short) 0xd872).putShort((short) 4791).putShort((short) (8 + payloadLength)).putShort((short) 0);
    }

    static Dissection dissect(byte[] frame) {
        return dissect(Frame.of(1, 0, LinkTypes.ETHERNET, frame));
    }

    static Dissection dissect(Frame frame) {
        Dissection d = new Dissection();
        DissectorChain.standard().dissect(frame, d);
        return d;
    }

    /** The frame with only its first {@code captured} bytes captured, as a snaplen leaves it. */
    static Frame cutShort(byte[] frame, int captured, int linkType) {
        byte[] kept = Arrays.copyOf(frame, captured);
        return new Frame(1, 0, captured, frame.length, linkType, 0, ByteBuffer.wrap(kept).asReadOnlyBuffer(), 0);
    }

    /** The one layer of {@code type}, failing when it is missing. */
    static int layer(Dissection d, HeaderType type) {
        int layer = d.find(type);
        assertTrue(layer >= 0, type + " not found");
        return layer;
    }

    /** The integer (or IPv4) value of {@code field} in the layer of {@code type}, which must be present. */
    static long value(Dissection d, HeaderType type, Field field) {
        int layer = layer(d, type);
        assertTrue(field.isPresent(d, layer), field + " absent");
        return field.read(d.buffer(), d.layerAt(layer));
    }

    /** The bytes of a BYTES or IPv6 field in the layer of {@code type}, which must be present. */
    static byte[] bytes(Dissection d, HeaderType type, Field field) {
        int layer = layer(d, type);
        assertTrue(field.isPresent(d, layer), field + " absent");
        byte[] out = new byte[field.lengthIn(d.layerLength(layer))];
        d.buffer().get(d.layerAt(layer) + field.offset(), out);
        return out;
    }

    static boolean present(Dissection d, HeaderType type, Field field) {
        int layer = d.find(type);
        return layer >= 0 && field.isPresent(d, layer);
    }
}

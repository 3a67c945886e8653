package io.rdmascope.proto.ib;

import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.build.Frames;
import io.rdmascope.build.InvariantCrc;
import io.rdmascope.build.RocePacket;
import io.rdmascope.build.VariantCrc;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Native InfiniBand frames from a real ibdump capture ({@code ../shared/captures/
 * srinivaskoritala_infiniband.pcap}: ERF type 21 records; SMPs on VL15, SA and CM MADs, RC SEND and
 * ACK, IPoIB over UD; some with a GRH). The one place where both CRCs of native IB can be held
 * against hardware. Skipped where the shared captures are absent (they are not ours to copy).
 */
class NativeIbCaptureTest {
    private static final String CAPTURE = "srinivaskoritala_infiniband.pcap";
    private static List<Frame> frames;

    @BeforeAll
    static void readCapture() throws IOException {
        Path file = SharedFiles.capture(CAPTURE);
        frames = readPcap(Files.readAllBytes(file));
        assertTrue(frames.size() > 10, "frames read: " + frames.size());
    }

    @Test
    @DisplayName("the builder's own ICRC and VCRC code reproduce the CRCs of every native frame in the capture")
    void independentCrcsMatchHardware() {
        int checked = 0;
        for (Frame f : frames) {
            Dissection d = dissect(f);
            if (d.rdma().encapsulation != io.rdmascope.dissect.RdmaContext.Encapsulation.INFINIBAND
                    || d.rdma().icrcOffset < 0) {
                continue;
            }
            byte[] b = f.toByteArray();
            int lrh = d.rdma().coverageStart;
            int icrcAt = d.rdma().icrcOffset;
            InvariantCrc.Scope scope = d.rdma().hasGrh ? InvariantCrc.Scope.IB_GLOBAL : InvariantCrc.Scope.IB_LOCAL;
            int icrc = InvariantCrc.compute(b, scope, lrh, icrcAt);
            byte[] expected = new byte[4];
            InvariantCrc.store(expected, 0, icrc);
            assertEquals(Frames.hex(Arrays.copyOfRange(b, icrcAt, icrcAt + 4)), Frames.hex(expected),
                    "ICRC of frame " + f.number() + " (" + scope + ")");
            int vcrcAt = icrcAt + 4;
            byte[] vcrc = new byte[2];
            VariantCrc.store(vcrc, 0, VariantCrc.compute(b, lrh, vcrcAt));
            assertEquals(Frames.hex(Arrays.copyOfRange(b, vcrcAt, vcrcAt + 2)), Frames.hex(vcrc),
                    "VCRC of frame " + f.number());
            checked++;
        }
        assertTrue(checked >= 40, "native frames checked: " + checked);
    }

    @Test
    @DisplayName("every native frame of the capture verifies good on its VCRC in the dissector")
    void dissectorVcrcIsGoodOnHardwareFrames() {
        List<String> bad = new ArrayList<>();
        for (Frame f : frames) {
            Dissection d = dissect(f);
            if (Crcs.vcrcStatus(d) != Crcs.STATUS_GOOD) {
                bad.add("frame " + f.number() + ": status " + Crcs.vcrcStatus(d));
            }
        }
        assertEquals(List.of(), bad);
    }

    /**
     * Fails while {@code Crcs} covers the real LRH (VL masked) of packets that carry a GRH: on the
     * wire, such packets' ICRC is taken over eight bytes of ones in the LRH's place, as for RoCE.
     */
    @Test
    @DisplayName("every native frame of the capture, with or without a GRH, verifies good on its ICRC in the dissector")
    void dissectorIcrcIsGoodOnHardwareFrames() {
        List<String> bad = new ArrayList<>();
        int checked = 0;
        for (Frame f : frames) {
            Dissection d = dissect(f);
            if (d.rdma().icrcOffset < 0) {
                continue;
            }
            checked++;
            if (Crcs.icrcStatus(d) != Crcs.STATUS_GOOD) {
                bad.add(String.format("frame %d (%s): wire %08x, computed %08x", f.number(),
                        d.rdma().hasGrh ? "LRH+GRH" : "LRH", d.u32(d.rdma().icrcOffset), Crcs.icrcComputed(d)));
            }
        }
        assertTrue(checked >= 40, "native frames checked: " + checked);
        assertEquals(List.of(), bad);
    }

    @Test
    @DisplayName("the builder rebuilds every native frame of the capture byte for byte from its decoded fields")
    void builderRebuildsEveryHardwareFrame() {
        int rebuilt = 0;
        for (Frame f : frames) {
            Dissection d = dissect(f);
            if (d.rdma().icrcOffset < 0 || d.rdma().vcrcOffset < 0) {
                continue;
            }
            byte[] wire = f.toByteArray();
            int lrh = d.rdma().coverageStart;
            byte[] packet = Arrays.copyOfRange(wire, lrh, d.rdma().vcrcOffset + 2);
            byte[] built = rebuild(d, wire);
            assertEquals(Frames.hex(packet), Frames.hex(built), "frame " + f.number());
            rebuilt++;
        }
        assertTrue(rebuilt >= 40, "frames rebuilt: " + rebuilt);
    }

    /** Builds a packet from the field values a dissection reads, through the builder's public API. */
    private static byte[] rebuild(Dissection d, byte[] wire) {
        ByteBuffer buf = d.buffer();
        int opcode = d.rdma().opcode;
        List<HeaderType> chain = Opcodes.of(opcode).headers();
        int lrhLayer = d.find(InfiniBand.LRH);
        RocePacket p = RocePacket.nativeIb((int) InfiniBand.LRH_SLID.read(buf, d.layerAt(lrhLayer)),
                (int) InfiniBand.LRH_DLID.read(buf, d.layerAt(lrhLayer)));
        int grhLayer = d.find(InfiniBand.GRH);
        if (grhLayer >= 0) {
            int at = d.layerStart(grhLayer);
            p.grh(Arrays.copyOfRange(wire, at + 8, at + 24), Arrays.copyOfRange(wire, at + 24, at + 40));
        }
        for (int layer = 0; layer < d.layerCount(); layer++) {
            HeaderType t = d.layerType(layer);
            if (t != InfiniBand.LRH && t != InfiniBand.GRH && t != InfiniBand.BTH && !chain.contains(t)) {
                continue;
            }
            for (Field field : t.fields()) {
                if (field.isComputed() || field.length() == Field.REST_OF_HEADER) {
                    continue;
                }
                int at = d.layerStart(layer) + field.offset();
                if (field.type() == FieldType.IPV6 || field.type() == FieldType.BYTES) {
                    p.set(field, Arrays.copyOfRange(wire, at, at + field.length()));
                } else {
                    p.set(field, field.read(buf, d.layerAt(layer)));
                }
            }
        }
        int payloadStart = d.rdma().payloadStart;
        p.payload(Arrays.copyOfRange(wire, payloadStart, payloadStart + d.rdma().payloadLength));
        return p.build();
    }

    private static Dissection dissect(Frame f) {
        Dissection d = new Dissection();
        Frames.CHAIN.dissect(f, d);
        return d;
    }

    /** Classic pcap, either byte order, microsecond or nanosecond magic. */
    private static List<Frame> readPcap(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        int magic = b.getInt(0);
        if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
            b.order(ByteOrder.LITTLE_ENDIAN);
        }
        int linkType = b.getInt(20) & 0x0FFFFFFF;
        assertEquals(LinkTypes.ERF, linkType, "link type");
        List<Frame> out = new ArrayList<>();
        int at = 24;
        long number = 1;
        while (at + 16 <= file.length) {
            int captured = b.getInt(at + 8);
            int wireLength = b.getInt(at + 12);
            byte[] data = Arrays.copyOfRange(file, at + 16, at + 16 + captured);
            out.add(new Frame(number++, 0, captured, wireLength, linkType, 0, ByteBuffer.wrap(data), 0));
            at += 16 + captured;
        }
        return out;
    }
}

package io.rdmascope.proto.nvmeof;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.text.PcapFixtures;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.rdmascope.testsupport.ProtocolFixtures.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When NVMe-oF is claimed: only on a queue pair whose CM exchange for port 4420 was captured, never
 * on other traffic (every real capture in {@code ../shared/captures} and every committed sample case),
 * and what the capsules carry (the decoded values of the real discovery capture).
 */
class NvmeOfDetectionTest {
    /** Frame offset of the REQ's service ID port on the RoCEv2 discovery capture (Ethernet, IPv4, UDP, BTH, DETH, MAD). */
    private static final int REQ_SERVICE_ID_PORT = 14 + 20 + 8 + 12 + 8 + 24 + 14;

    @Test
    @DisplayName("no capture in ../shared/captures and no sample case is taken for NVMe-oF")
    void noFalsePositives() throws Exception {
        ProtocolFixtures.Scan scan = ProtocolFixtures.scanForClaims("ulp_nvmeof", d -> hasNvme(d)
                || PacketSummary.of(d).protocol().startsWith("NVMe"));
        assertTrue(scan.frames() > 1000, "frames dissected: " + scan.frames());
        assertEquals(List.of(), scan.claimed());
    }

    @Test
    @DisplayName("the same exchange asking for port 4421 is not NVMe-oF: detection needs the CM service ID")
    void anotherPortIsNotNvme() throws Exception {
        Path file = SharedFiles.hardCapture(NvmeOfTsharkParityTest.CAPTURE);
        List<Frame> frames = PcapFixtures.read(file);
        assertEquals(4420, u16(frames.get(0), REQ_SERVICE_ID_PORT)); // the offset is the port's
        List<Frame> moved = new ArrayList<>(frames);
        moved.set(0, withU16(frames.get(0), REQ_SERVICE_ID_PORT, 4421));
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        int nvme = 0;
        for (Frame f : moved) {
            chain.dissect(f, d);
            nvme += hasNvme(d) ? 1 : 0;
        }
        assertEquals(0, nvme);
    }

    @Test
    @DisplayName("frames that go backwards forget the queues: a second pass from the Connect on is plain RDMA")
    void framesGoingBackwardsForget() throws Exception {
        List<Frame> frames = PcapFixtures.read(SharedFiles.hardCapture(NvmeOfTsharkParityTest.CAPTURE));
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        for (Frame f : frames) {
            chain.dissect(f, d);
        }
        chain.dissect(frames.get(3), d); // frame 4, the Connect, again
        assertEquals(false, hasNvme(d));
    }

    @Test
    @DisplayName("capsules decode as NVMe-oF: queue, Connect, keyed SGL, CQE and the data transfer's command")
    void decodedValues() throws Exception {
        List<Dissection> ds = ProtocolFixtures.dissectAll(
                SharedFiles.hardCapture(NvmeOfTsharkParityTest.CAPTURE));
        assertEquals("33", value(ds.get(1), "nvme-rdma.cm.rsp.crqsize"));
        assertEquals("32", value(ds.get(0), "nvme-rdma.cm.req.hrqsize"));
        assertEquals("31", value(ds.get(0), "nvme-rdma.cm.req.hsqsize"));
        Dissection connect = ds.get(3);
        assertEquals("0x01", value(connect, "nvme.fabrics.cmd.fctype"));
        assertEquals("0x000000207ff33800", value(connect, "nvme.cmd.sgl1.addr"));
        assertEquals("1024", value(connect, "nvme.cmd.sgl1.len"));
        assertEquals("0x00001724", value(connect, "nvme.cmd.sgl1.key"));
        assertEquals("15000", value(connect, "nvme.fabrics.cmd.connect.kato"));
        assertEquals("0x0030", value(ds.get(7), "nvme.fabrics.cqe.connect.cntrlid"));
        assertEquals("NVMeOF Data Request for Connect", nvmeInfo(ds.get(5)));
        assertEquals("NVMeoF Data for Connect, offset 0", nvmeInfo(ds.get(6)));
        assertEquals("NVMeOF CQE for Property Get Controller Capabilities", nvmeInfo(ds.get(11)));
        assertEquals("0x06", value(ds.get(25), "nvme.cmd.opc"));
        assertEquals("0x00000001", value(ds.get(25), "nvme.cmd.identify.dword10.cns"));
        assertEquals("", value(ds.get(25), "nvme.cmd.dword10")); // Identify's DWORD10 has its own name
        assertEquals("NVMe Identify Controller", nvmeInfo(ds.get(25)));
        assertEquals("NVMe Keep Alive", nvmeInfo(ds.get(28)));
        // Matching: each response and transfer names the frame of the command it serves.
        assertEquals("4", value(ds.get(7), "nvme.fabrics.cmd_pkt"));
        assertEquals("4", value(ds.get(5), "nvme.fabrics.cmd_pkt"));
        assertEquals("6", value(ds.get(6), "nvme.fabrics.data_req"));
        assertEquals("22", value(ds.get(23), "nvme.fabrics.cmd_pkt"));
        assertEquals("", value(ds.get(25), "nvme.fabrics.cmd_pkt")); // a command serves no earlier one
    }

    private static boolean hasNvme(Dissection d) {
        for (int i = 0; i < d.layerCount(); i++) {
            String p = d.layerType(i).protocol().abbrev();
            if (p.equals("nvme") || p.equals("nvme-rdma")) {
                return true;
            }
        }
        return false;
    }

    private static String nvmeInfo(Dissection d) {
        String info = PacketSummary.of(d).info();
        return info.substring(info.indexOf(" | ") + 3);
    }

    private static int u16(Frame f, int at) {
        return f.buffer().getShort(f.offset() + at) & 0xFFFF;
    }

    private static Frame withU16(Frame f, int at, int value) {
        byte[] bytes = new byte[f.capturedLength()];
        f.buffer().get(f.offset(), bytes, 0, bytes.length);
        ByteBuffer.wrap(bytes).putShort(at, (short) value);
        return new Frame(f.number(), f.timeNanos(), f.capturedLength(), f.wireLength(), f.linkType(), f.interfaceId(),
                ByteBuffer.wrap(bytes), 0);
    }
}

package io.rdmascope.gui.charts;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapngWriter;
import io.rdmascope.frame.Frame;
import io.rdmascope.samples.Connection;
import io.rdmascope.samples.Fabric;
import io.rdmascope.samples.Host;
import io.rdmascope.samples.ScenarioCatalog.Format;
import io.rdmascope.samples.ScenarioCatalog.Scenario;
import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.Wire;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A generated capture shaped like the real 3-node NCCL capture whose charts issue 17 reports
 * unusable: a TCP bootstrap at the capture's start, then, 17.5 s later, a ring all-reduce over three
 * hosts (two RC QPs per ring edge, RDMA WRITE with immediate of 64 KiB chunks, 2·(N−1) steps per
 * iteration) beside a control QP that sends 64-byte messages now and then — the conversation whose
 * goodput was invisible at 0.0015 Gb/s. No loss: the events chart must give way to its sentence.
 * The generator has no such scenario (none with three hosts and all-reduce traffic), so the script
 * lives here, written with the generator's public Fabric and Connection calls.
 */
public final class NcclLikeRun {
    static final int HOSTS = 3;
    static final int CHANNELS = 2;
    static final int ITERATIONS = 10;
    static final int CHUNK_BYTES = 64 * 1024;
    /** The job's bootstrap and warm-up before the first collective. */
    static final long BOOTSTRAP_NANOS = 17_500_000_000L;

    private NcclLikeRun() {
    }

    /** Writes {@code dir/nccl_like_3node.pcapng} and returns it. */
    public static Path write(Path dir) throws IOException {
        Scenario s = new Scenario("nccl_like_3node", "3-node ring all-reduce after a TCP bootstrap", 17,
                Format.PCAPNG, Wire.of(Wire.Encap.ROCE_V2_IPV4), NcclLikeRun::allReduce);
        Path rdma = Scenarios.write(s, dir, s.seed());
        Path out = dir.resolve("nccl_like_3node.pcapng");
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out));
             PcapngWriter w = new PcapngWriter(os, null, null, "rdmascope gui tests (NcclLikeRun)");
             PacketSource in = CaptureFiles.open(rdma)) {
            int ethernet = w.addInterface(1, 0, null, null, null);
            long rdmaStart = Scenarios.START_NANOS;
            long t = rdmaStart - BOOTSTRAP_NANOS;
            // NCCL's bootstrap ring over TCP: a handshake between each pair of ring neighbours
            for (int h = 1; h <= HOSTS; h++) {
                int peer = h % HOSTS + 1;
                w.write(ethernet, t, tcp(h, peer, 0x02), 60);
                w.write(ethernet, t + 30_000, tcp(peer, h, 0x12), 60);
                w.write(ethernet, t + 60_000, tcp(h, peer, 0x10), 60);
                t += 2_000_000;
            }
            for (Frame f = in.next(); f != null; f = in.next()) {
                byte[] bytes = new byte[f.capturedLength()];
                f.buffer().get(f.offset(), bytes, 0, bytes.length);
                w.write(ethernet, f.timeNanos(), bytes, f.wireLength());
            }
        }
        return out;
    }

    private static void allReduce(Fabric f) {
        Host[] hosts = new Host[HOSTS];
        for (int i = 0; i < HOSTS; i++) {
            hosts[i] = f.host(i + 1);
        }
        Connection control = f.rc(hosts[0], hosts[1], 1024);
        Connection[] ring = new Connection[HOSTS * CHANNELS];
        for (int i = 0; i < ring.length; i++) {
            int from = i / CHANNELS;
            ring[i] = f.rc(hosts[from], hosts[(from + 1) % HOSTS], 4096);
        }
        for (int iteration = 0; iteration < ITERATIONS; iteration++) {
            for (int step = 0; step < 2 * (HOSTS - 1); step++) {
                for (Connection c : ring) {
                    c.transmit(c.writeWithImmediate(CHUNK_BYTES, step));
                    c.ack();
                }
                f.idle();
            }
            if (iteration % 3 == 0) {
                control.transmit(control.send(64));
                control.ack();
            }
            f.pause(2_000_000); // the compute between collectives
        }
    }

    /** A minimal Ethernet/IPv4/TCP segment with {@code flags} between hosts 10.0.0.{from,to}, padded to 60 bytes. */
    private static byte[] tcp(int from, int to, int flags) {
        byte[] b = new byte[60];
        byte[] dst = {0x02, 0x1e, 0x67, 0, 0, (byte) to};
        byte[] src = {0x02, 0x1e, 0x67, 0, 0, (byte) from};
        System.arraycopy(dst, 0, b, 0, 6);
        System.arraycopy(src, 0, b, 6, 6);
        b[12] = 0x08; // IPv4
        b[14] = 0x45;
        b[17] = 40; // total length
        b[22] = 64; // TTL
        b[23] = 6; // TCP
        b[26] = 10;
        b[29] = (byte) from;
        b[30] = 10;
        b[33] = (byte) to;
        int sum = 0;
        for (int i = 14; i < 34; i += 2) {
            sum += (b[i] & 0xff) << 8 | (b[i + 1] & 0xff);
        }
        sum = (sum & 0xffff) + (sum >>> 16);
        int checksum = ~sum & 0xffff;
        b[24] = (byte) (checksum >>> 8);
        b[25] = (byte) checksum;
        int srcPort = 40_000 + from;
        int dstPort = 40_000 + to;
        b[34] = (byte) (srcPort >>> 8);
        b[35] = (byte) srcPort;
        b[36] = (byte) (dstPort >>> 8);
        b[37] = (byte) dstPort;
        b[46] = 0x50; // data offset 5 words
        b[47] = (byte) flags;
        b[48] = (byte) 0xfa; // window
        return b;
    }
}

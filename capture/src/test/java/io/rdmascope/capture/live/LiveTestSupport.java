package io.rdmascope.capture.live;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ip.Transport;
import org.junit.jupiter.api.Assumptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Shared pieces of the live-capture tests: skipping where capture is impossible, a consumer, commands. */
final class LiveTestSupport {
    private LiveTestSupport() {
    }

    /** Skips (saying why) unless libpcap loads and this process may capture on {@code iface}. */
    static void assumeCanCapture(String iface) throws LiveCaptureException {
        String why = null;
        try {
            LibPcap.load();
        } catch (LiveCaptureException e) {
            why = e.getMessage();
        }
        Assumptions.assumeTrue(why == null, "SKIPPED: live capture impossible here: " + why
                + " (.ci/run installs libpcap0.8 and runs as root)");
        CaptureAccess access = CaptureInterfaces.probe(iface);
        Assumptions.assumeTrue(access.allowed(), "SKIPPED: cannot capture on " + iface + " here (needs root, or "
                + "CAP_NET_RAW and CAP_NET_ADMIN): " + access.problem());
    }

    /** What a frame said, decoded on the consumer thread. */
    record Seen(long number, int udpSource, int udpDestination, int opcode, int psn, int destQp, int linkType,
                byte[] bytes) {
    }

    /** A consumer thread: takes every frame from the capture, decodes it, optionally writes it. */
    static final class Consumer extends Thread {
        private final LiveCapture capture;
        private final PcapngOutput output;
        final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
        volatile Throwable failure;

        Consumer(LiveCapture capture, PcapngOutput output) {
            super("test-consumer");
            this.capture = capture;
            this.output = output;
            setDaemon(true);
        }

        @Override
        public void run() {
            DissectorChain chain = DissectorChain.standard();
            Dissection d = new Dissection();
            try {
                Frame f;
                while ((f = capture.next()) != null) {
                    if (output != null) {
                        output.write(f);
                    }
                    seen.add(decode(chain, d, f));
                }
                if (output != null) {
                    output.close();
                }
            } catch (Throwable t) {
                failure = t;
            }
        }
    }

    static Seen decode(DissectorChain chain, Dissection d, Frame f) {
        chain.dissect(f, d);
        int udp = d.find(Transport.UDP);
        int src = -1;
        int dst = -1;
        if (udp >= 0) {
            src = (int) Transport.UDP_SRCPORT.read(d.buffer(), d.layerAt(udp));
            dst = (int) Transport.UDP_DSTPORT.read(d.buffer(), d.layerAt(udp));
        }
        int opcode = -1;
        int psn = -1;
        int qp = -1;
        if (d.rdma().isRdma()) {
            int bth = d.layerAt(d.rdma().bthLayer);
            opcode = d.rdma().opcode;
            psn = (int) InfiniBand.BTH_PSN.read(d.buffer(), bth);
            qp = (int) InfiniBand.BTH_DESTQP.read(d.buffer(), bth);
        }
        return new Seen(f.number(), src, dst, opcode, psn, qp, f.linkType(), f.toByteArray());
    }

    /** Result of a finished command. */
    record Run(int status, String output) {
    }

    /** Runs a command to its end (stdout and stderr together), at most {@code seconds}. */
    static Run run(List<String> command, long seconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> {
            try (InputStream in = p.getInputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // the process is gone
            }
        });
        reader.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            reader.join(1000);
            throw new IOException("timed out after " + seconds + " s: " + command + "\n" + out);
        }
        reader.join(5000);
        return new Run(p.exitValue(), out.toString(StandardCharsets.UTF_8));
    }

    static Run run(long seconds, String... command) throws IOException, InterruptedException {
        return run(List.of(command), seconds);
    }

    /** The java binary running the tests, for child JVMs. */
    static String java() {
        return ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + "/bin/java");
    }
}

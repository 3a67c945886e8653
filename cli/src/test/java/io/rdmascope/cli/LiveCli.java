package io.rdmascope.cli;

import io.rdmascope.build.BuiltPacket;
import io.rdmascope.build.RocePacket;
import io.rdmascope.capture.live.CaptureAccess;
import io.rdmascope.capture.live.CaptureInterfaces;
import io.rdmascope.capture.live.LibPcap;
import io.rdmascope.capture.live.LiveCaptureException;
import io.rdmascope.proto.ib.InfiniBand;
import org.junit.jupiter.api.Assumptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * Runs the CLI in-process on its own thread, so a test can send traffic while {@code capture} runs,
 * once its stderr says it is capturing.
 */
final class LiveCli {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final StringWriter err = new StringWriter();
    private final Thread thread;
    private volatile int status = -1;

    private LiveCli(String... args) {
        thread = new Thread(() -> status = Main.run(args, out, new PrintWriter(err, true)), "cli");
        thread.setDaemon(true);
        thread.start();
    }

    static LiveCli start(String... args) {
        return new LiveCli(args);
    }

    /** Waits until stderr contains {@code text} (or the command ended). */
    LiveCli awaitErr(String text, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!err.toString().contains(text) && thread.isAlive() && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        if (!err.toString().contains(text)) {
            throw new AssertionError("stderr never said '" + text + "': " + err);
        }
        return this;
    }

    Cli join(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        if (thread.isAlive()) {
            throw new AssertionError("capture did not finish in " + timeout + "; stderr: " + err);
        }
        return new Cli(status, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    byte[] stdoutBytes() {
        return out.toByteArray();
    }

    /** Skips, saying why, unless libpcap loads and this process may capture on {@code iface}. */
    static void assumeCanCapture(String iface) throws LiveCaptureException {
        Assumptions.assumeTrue(LibPcap.available(),
                "SKIPPED: libpcap is not installed here (.ci/run installs libpcap0.8)");
        CaptureAccess a = CaptureInterfaces.probe(iface);
        Assumptions.assumeTrue(a.allowed(), "SKIPPED: cannot capture on " + iface
                + " here (needs root, or CAP_NET_RAW and CAP_NET_ADMIN): " + a.problem());
    }

    /** BTH … ICRC of a RoCEv2 packet with PSN {@code psn} (SEND Only and RDMA WRITE Only in turn). */
    static byte[] roce(int psn, int payloadBytes) {
        BuiltPacket p = RocePacket.v2Ipv4(new byte[6], new byte[6], new byte[]{127, 0, 0, 1}, new byte[]{127, 0, 0, 1})
                .opcode(psn % 2 == 0 ? 0x04 : 0x0A).destQp(0x12).psn(psn).payload(new byte[payloadBytes])
                .buildPacket();
        int bth = p.offsetOf(InfiniBand.BTH);
        return Arrays.copyOfRange(p.bytes(), bth, p.bytes().length);
    }

    /** A whole Ethernet/IPv4/UDP/RoCEv2 frame with PSN {@code psn}, as the builder makes it. */
    static byte[] roceFrame(int psn) {
        return RocePacket.v2Ipv4(new byte[]{2, 0, 0, 0, 0, 1}, new byte[]{2, 0, 0, 0, 0, 2},
                        new byte[]{10, 0, 0, 1}, new byte[]{10, 0, 0, 2})
                .opcode(0x04).destQp(0x12).psn(psn).payload(new byte[32]).build();
    }

    /** Sends {@code n} RoCEv2 payloads (PSN 0 … n-1) from {@code socket} to 127.0.0.1:4791. */
    static void sendRoce(DatagramSocket socket, int n, int payloadBytes) throws IOException {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        for (int i = 0; i < n; i++) {
            byte[] b = roce(i, payloadBytes);
            socket.send(new DatagramPacket(b, b.length, lo, 4791));
        }
    }

    static DatagramSocket loopbackSocket() throws IOException {
        return new DatagramSocket(0, InetAddress.getByName("127.0.0.1"));
    }
}

package io.rdmascope.capture.live;

import io.rdmascope.build.BuiltPacket;
import io.rdmascope.build.RocePacket;
import io.rdmascope.proto.ib.InfiniBand;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * RoCEv2 traffic for live-capture tests and the loss benchmark: the InfiniBand transport part of
 * packets made by the packet builder (BTH … ICRC), sent as UDP payload, so the kernel adds the
 * Ethernet, IP and UDP headers. The ICRC covers the builder's own IP/UDP headers, not the kernel's,
 * so dissectors call it bad; nothing here checks it.
 *
 * <pre>
 * java -cp … io.rdmascope.capture.live.RoceTraffic HOST PORT COUNT [RATE_PPS [PAYLOAD_BYTES [UNRELATED_PORT]]]
 * </pre>
 * sends COUNT packets with PSN 0, 1, … (RATE 0: as fast as possible), one unrelated datagram to
 * UNRELATED_PORT after each when given, and prints {@code sent N in S s (R pps)}.
 */
public final class RoceTraffic {
    /** The opcodes sent in turn: RC SEND Only, RDMA WRITE Only, RDMA READ Request, Acknowledge. */
    static final int[] OPCODES = {0x04, 0x0A, 0x0C, 0x11};
    static final int DEST_QP = 0x00ABCD;

    private RoceTraffic() {
    }

    static int opcode(int i) {
        return OPCODES[i % OPCODES.length];
    }

    /** BTH through ICRC of packet {@code i}: opcode {@link #opcode(int)}, PSN {@code i}. */
    static byte[] transport(int i, int payloadBytes) {
        int opcode = opcode(i);
        byte[] payload = new byte[opcode == 0x04 || opcode == 0x0A ? payloadBytes : 0];
        Arrays.fill(payload, (byte) i);
        BuiltPacket p = RocePacket.v2Ipv4(new byte[6], new byte[6], new byte[]{127, 0, 0, 1}, new byte[]{127, 0, 0, 1})
                .opcode(opcode).destQp(DEST_QP).psn(i & 0xFFFFFF).ackReq(true).payload(payload).buildPacket();
        int bth = p.offsetOf(InfiniBand.BTH);
        return Arrays.copyOfRange(p.bytes(), bth, p.bytes().length);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: RoceTraffic HOST PORT COUNT [RATE_PPS [PAYLOAD_BYTES [UNRELATED_PORT]]]");
            System.exit(2);
        }
        InetSocketAddress to = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        long count = Long.parseLong(args[2]);
        long rate = args.length > 3 ? Long.parseLong(args[3]) : 0;
        int payloadBytes = args.length > 4 ? Integer.parseInt(args[4]) : 64;
        InetSocketAddress unrelated = args.length > 5
                ? new InetSocketAddress(to.getAddress(), Integer.parseInt(args[5])) : null;
        // A handful of distinct packets, reused: building every one would cost more than sending it.
        ByteBuffer[] packets = new ByteBuffer[64];
        for (int i = 0; i < packets.length; i++) {
            packets[i] = ByteBuffer.wrap(transport(i, payloadBytes));
        }
        ByteBuffer other = ByteBuffer.wrap("not RoCE".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        long start = System.nanoTime();
        long sent = 0;
        // When the destination is on this host and its port free, a socket bound there and never
        // read absorbs the packets (dropped once its buffer is full, after the capture point) and
        // lets the sender connect: the cheapest send path, and no ICMP port-unreachable replies.
        DatagramChannel sink = null;
        try {
            sink = DatagramChannel.open().bind(to);
        } catch (IOException e) {
            // not a local address, or the port is taken: send unconnected (the ICMP replies are ignored)
        }
        try (DatagramChannel channel = DatagramChannel.open(); DatagramChannel otherChannel = DatagramChannel.open()) {
            if (sink != null) {
                channel.connect(to);
            }
            while (sent < count) {
                long due = rate <= 0 ? count : Math.min(count, (System.nanoTime() - start) * rate / 1_000_000_000L + 1);
                if (sent >= due) {
                    LockSupport.parkNanos(100_000);
                    continue;
                }
                while (sent < due) {
                    ByteBuffer p = packets[(int) (sent % packets.length)];
                    // PSN = send index, written into the BTH (bytes 9..11); 64 keeps the opcode cycle aligned.
                    p.put(9, (byte) (sent >>> 16)).put(10, (byte) (sent >>> 8)).put(11, (byte) sent);
                    p.clear();
                    if (sink != null) {
                        channel.write(p);
                    } else {
                        channel.send(p, to);
                    }
                    if (unrelated != null) {
                        other.clear();
                        otherChannel.send(other, unrelated);
                    }
                    sent++;
                }
            }
        } finally {
            if (sink != null) {
                sink.close();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("sent %d in %.3f s (%.0f pps)%n", sent, seconds, sent / seconds);
    }
}

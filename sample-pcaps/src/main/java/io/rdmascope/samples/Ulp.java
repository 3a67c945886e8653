package io.rdmascope.samples;

import io.rdmascope.samples.Connection.Msg;

import java.util.ArrayList;
import java.util.List;

/**
 * One RC connection of a storage protocol (issue 19) seen as its two roles: the host (initiator,
 * client) that made the CM connection, and the target (controller, server) that answers it and moves
 * the data. Every message either side SENDs is acknowledged by the other as an RC responder does; the
 * target's RDMA WRITEs into and READs from the host's buffers go on the connection's
 * {@link Connection#reverse()} direction. Each operation the script performs is written into the truth
 * as it happens ({@link TruthLog.OperationRecord}), from what the script did, never from a decoder.
 */
final class Ulp {
    static final String NVME = "nvme-rdma";
    static final String ISER = "iser";
    static final String RPCRDMA = "rpcordma";
    static final String SMB_DIRECT = "smb_direct";

    final Fabric fabric;
    final String protocol;
    /** The host's QP sending to the target's: commands, calls, requests. */
    final Connection toTarget;
    /** The target's QP sending to the host's: responses, and the RDMA operations that move the data. */
    final Connection toHost;

    Ulp(Fabric fabric, String protocol, Connection established) {
        this.fabric = fabric;
        this.protocol = protocol;
        this.toTarget = established;
        this.toHost = established.reverse();
    }

    /** The host SENDs {@code message}; the target acknowledges it. Returns the SEND's first frame. */
    int hostSends(byte[] message) {
        int first = transmit(toTarget, toTarget.send(message));
        toTarget.ack();
        return first;
    }

    /** The host SENDs {@code message}, and the target acknowledges it only with a later ACK (coalesced). */
    int hostSendsUnacknowledged(byte[] message) {
        return transmit(toTarget, toTarget.send(message));
    }

    /** The target acknowledges everything the host sent so far, in one ACK. */
    void targetAcknowledges() {
        toTarget.ack();
    }

    /** The target SENDs {@code message}; the host acknowledges it. Returns the SEND's first frame. */
    int targetSends(byte[] message) {
        int first = transmit(toHost, toHost.send(message));
        toHost.ack();
        return first;
    }

    /** The target SENDs {@code message} with Invalidate of the host's {@code rkey} (a response releasing a buffer). */
    int targetSendsInvalidating(byte[] message, long rkey) {
        int first = transmit(toHost, toHost.sendWithInvalidate(message, rkey));
        toHost.ack();
        return first;
    }

    /** The target RDMA WRITEs {@code bytes} into the host's buffer at {@code va} under {@code rkey}; acknowledged. */
    List<Integer> targetWrites(int bytes, long va, long rkey) {
        return acknowledgedWrite(toHost.writeTo(bytes, va, rkey));
    }

    /** The target RDMA WRITEs {@code data} (a message of its protocol) into the host's buffer; acknowledged. */
    List<Integer> targetWrites(byte[] data, long va, long rkey) {
        return acknowledgedWrite(toHost.writeTo(data, va, rkey));
    }

    private List<Integer> acknowledgedWrite(Msg w) {
        List<Integer> frames = frames(toHost.transmit(w));
        toHost.ack();
        return frames;
    }

    /** The target RDMA READs {@code bytes} of the host's buffer at {@code va} under {@code rkey}: request and responses. */
    List<Integer> targetReads(int bytes, long va, long rkey) {
        Msg r = toHost.readFrom(bytes, va, rkey);
        List<Integer> frames = frames(toHost.transmit(r));
        frames.addAll(frames(toHost.respondRead(r)));
        return frames;
    }

    /** Records an operation whose command went out at {@code commandFrame}. */
    TruthLog.OperationRecord command(String opcode, long id, int commandFrame) {
        return fabric.truth.operation(protocol, toTarget.id(), opcode, id, commandFrame);
    }

    /** Records a planted protocol error shown at {@code frame}. */
    void planted(UlpError kind, Long id, int frame, String detail) {
        fabric.truth.planted(kind, protocol, toTarget.id(), id, frame, detail);
    }

    /** Think time between operations. */
    void idle() {
        fabric.idle();
    }

    private static int transmit(Connection c, Msg m) {
        return c.transmit(m)[0];
    }

    private static List<Integer> frames(int[] numbers) {
        List<Integer> out = new ArrayList<>();
        for (int n : numbers) {
            out.add(n);
        }
        return out;
    }

    /** A little-endian message of {@code size} bytes, as NVMe and SMB lay theirs out. */
    static java.nio.ByteBuffer le(int size) {
        return java.nio.ByteBuffer.allocate(size).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** A big-endian message of {@code size} bytes, as iSCSI, iSER and XDR lay theirs out. */
    static java.nio.ByteBuffer be(int size) {
        return java.nio.ByteBuffer.allocate(size);
    }

    /** {@code text} in ASCII, zero-padded to {@code size} bytes. */
    static byte[] ascii(String text, int size) {
        byte[] raw = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return java.util.Arrays.copyOf(raw, size);
    }

    /** Text keys padded with zeros to a 4-byte boundary (RFC 7143 §11.2.3: a data segment is padded). */
    static byte[] text(String keys) {
        byte[] raw = keys.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return java.util.Arrays.copyOf(raw, (raw.length + 3) & ~3);
    }

    /** The parts one after another. */
    static byte[] concat(byte[]... parts) {
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(p -> p.length)
                .sum());
        for (byte[] p : parts) {
            out.put(p);
        }
        return out.array();
    }
}

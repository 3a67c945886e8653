package io.rdmascope.samples;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The capture a scenario is writing: frames in capture order with their timestamps, and the clock
 * that spaces them. Frame numbers are 1-based, as Wireshark counts.
 */
public final class Trace {
    /** Serialisation time per byte at 100 Gb/s, in picoseconds. */
    private static final int PICOS_PER_BYTE_100G = 80;

    /** One captured frame; {@code wireLength} exceeds the bytes kept when the capture cut it. */
    public record CapturedFrame(long timeNanos, byte[] bytes, int wireLength, int linkType) {
    }

    private final List<CapturedFrame> frames = new ArrayList<>();
    private final Random random;
    private long clockNanos;

    Trace(long startNanos, Random random) {
        this.clockNanos = startNanos;
        this.random = random;
    }

    /** Records a frame at the current clock and returns its frame number. */
    int add(byte[] bytes, int linkType) {
        frames.add(new CapturedFrame(clockNanos, bytes, bytes.length, linkType));
        return frames.size();
    }

    /** Records a frame the capture cut to {@code keep} bytes (snap length), and returns its number. */
    int addTruncated(byte[] bytes, int keep, int linkType) {
        byte[] kept = java.util.Arrays.copyOf(bytes, keep);
        frames.add(new CapturedFrame(clockNanos, kept, bytes.length, linkType));
        return frames.size();
    }

    /**
     * Records a frame cut to {@code keep} bytes whose record nevertheless says {@code keep} bytes were on
     * the wire: a capture tool cutting frames without saying so (issue 15). Returns its number.
     */
    int addCutSilently(byte[] bytes, int keep, int linkType) {
        frames.add(new CapturedFrame(clockNanos, java.util.Arrays.copyOf(bytes, keep), keep, linkType));
        return frames.size();
    }

    /** Time of frame {@code number}. */
    long timeOf(int number) {
        return frames.get(number - 1).timeNanos();
    }

    long now() {
        return clockNanos;
    }

    /** Advances the clock by exactly {@code nanos}. */
    void pause(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("time runs forwards");
        }
        clockNanos += nanos;
    }

    /** Back-to-back packets from one sender: serialisation at 100 Gb/s plus 50–250 ns of scheduling. */
    void nextPacket(int bytes) {
        clockNanos += (long) bytes * PICOS_PER_BYTE_100G / 1000 + 50 + random.nextInt(200);
    }

    /** A responder's turnaround: 1.5–4 µs from the request it answers, as RoCE NICs measure. */
    void turnaround() {
        clockNanos += 1_500 + random.nextInt(2_500);
    }

    /** Application think time between messages: 2–20 µs. */
    void idle() {
        clockNanos += 2_000 + random.nextInt(18_000);
    }

    public List<CapturedFrame> frames() {
        return List.copyOf(frames);
    }

    int size() {
        return frames.size();
    }
}

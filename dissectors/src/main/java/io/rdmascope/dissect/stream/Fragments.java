package io.rdmascope.dissect.stream;

import io.rdmascope.dissect.Dissection;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * The fragments of one message being put together across frames (Wireshark's {@code
 * fragment_add_seq_next}): the frames they came in and their bytes, in order. iWARP's Send reassembly
 * and SMB Direct's Data Transfer fragments keep one each. Bounded: past {@code maxFragments} frames
 * or {@code maxBytes} bytes it is marked overflowed and the message is not shown reassembled.
 */
public final class Fragments {
    private final int maxFragments;
    private final int maxBytes;
    private long[] frames = new long[4];
    private int count;
    private final ByteArrayOutputStream data = new ByteArrayOutputStream();
    private boolean overflow;

    public Fragments(int maxFragments, int maxBytes) {
        this.maxFragments = maxFragments;
        this.maxBytes = maxBytes;
    }

    /** Adds the fragment in {@code d}'s frame whose bytes are frame offsets {@code [at, at + length)}. */
    public void add(Dissection d, int at, int length) {
        if (count == frames.length) {
            if (count == maxFragments) {
                overflow = true;
            } else {
                frames = Arrays.copyOf(frames, count * 2);
            }
        }
        if (count < frames.length) {
            frames[count++] = d.frame().number();
        }
        if (data.size() + length > maxBytes) {
            overflow = true;
        } else if (length > 0) {
            byte[] chunk = new byte[length];
            d.buffer().get(d.base() + at, chunk, 0, length);
            data.writeBytes(chunk);
        }
    }

    /** Fragments added since the last {@link #reset}. */
    public int count() {
        return count;
    }

    /** Whether a bound was passed: the message cannot be shown whole. */
    public boolean overflowed() {
        return overflow;
    }

    /** The fragments' frame numbers as 32-bit big-endian words, what a frame-list field reads. */
    public byte[] frameList() {
        return frameList(frames, count);
    }

    /** The first {@code count} of {@code frames} as 32-bit big-endian words, what a frame-list field reads. */
    public static byte[] frameList(long[] frames, int count) {
        byte[] list = new byte[4 * count];
        for (int i = 0; i < count; i++) {
            int f = (int) frames[i];
            list[4 * i] = (byte) (f >>> 24);
            list[4 * i + 1] = (byte) (f >>> 16);
            list[4 * i + 2] = (byte) (f >>> 8);
            list[4 * i + 3] = (byte) f;
        }
        return list;
    }

    /** The message's bytes so far. */
    public byte[] bytes() {
        return data.toByteArray();
    }

    /** Forgets the message (it was completed or abandoned). */
    public void reset() {
        count = 0;
        data.reset();
        overflow = false;
    }

    /** Offsets {@code 4, 8, …} of a frame list's second and later entries, for a field's {@code alsoAt}. */
    public static int[] listOffsets(int maxFragments) {
        int[] at = new int[maxFragments - 1];
        for (int i = 0; i < at.length; i++) {
            at[i] = 4 * (i + 1);
        }
        return at;
    }
}

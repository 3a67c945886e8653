package io.rdmascope.replay;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A growable list of frame numbers kept as primitives: a message gains one per packet on the hot
 * path, where a {@code List<Integer>} would box every frame number above 127. {@link #toList} gives
 * the immutable {@code List<Integer>} a {@link Message} carries, boxing only when a consumer reads it.
 */
final class FrameNumbers {
    private int[] values;
    private int size;
    /** {@code values} is also a handed-out list's array: copy before writing into it. */
    private boolean shared;
    /** Frames were added in ascending order (the usual case: a late FIRST is rare), so no sort is needed. */
    private boolean ascending = true;

    private static final int[] NONE = new int[0];

    /** {@code capacity} 0 allocates nothing until the first frame (most messages get no response frame). */
    FrameNumbers(int capacity) {
        values = capacity == 0 ? NONE : new int[capacity];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return values[index];
    }

    void add(int frame) {
        if (size == values.length || shared) {
            values = Arrays.copyOf(values, Math.max(2, size * 2));
            shared = false;
        }
        if (size > 0 && frame < values[size - 1]) {
            ascending = false;
        }
        values[size++] = frame;
    }

    void clear() {
        if (shared) {
            values = new int[values.length];
            shared = false;
        }
        size = 0;
        ascending = true;
    }

    int min() {
        int lowest = Integer.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            lowest = Math.min(lowest, values[i]);
        }
        return lowest;
    }

    /**
     * An immutable list in capture order (a late FIRST joins after later PSNs' frames): frames added in
     * order are handed out without a copy or a sort, sharing the array ({@link #shared}); only a list
     * added out of order is copied and sorted.
     */
    List<Integer> toSortedList() {
        if (ascending && size > 0) {
            shared = true;
        }
        return ascendingView(values, size, ascending);
    }

    /** An immutable list in the order added, sharing the array: a later add or clear copies it first. */
    List<Integer> toList() {
        if (size == 0) {
            return List.of();
        }
        shared = true;
        return new View(values, size);
    }

    /**
     * {@code values[0..size)} as an immutable list in ascending order: a view of the array itself when
     * {@code ascending} (the caller then owns the array no more: it copies before writing), else a sorted
     * copy.
     */
    static List<Integer> ascendingView(int[] values, int size, boolean ascending) {
        if (size == 0) {
            return List.of();
        }
        if (ascending) {
            return new View(values, size);
        }
        int[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        return new View(sorted, size);
    }

    /**
     * The high halves of {@code data[0]}, {@code data[stride]}, ... ({@code size} of them) as an immutable
     * list: frame numbers packed with other fields, read in place (the owner copies before writing).
     */
    static List<Integer> highHalves(long[] data, int stride, int size) {
        return size == 0 ? List.of() : new HighHalves(data, stride, size);
    }

    private static final class HighHalves extends AbstractList<Integer> implements RandomAccess {
        private final long[] data;
        private final int stride;
        private final int size;

        HighHalves(long[] data, int stride, int size) {
            this.data = data;
            this.stride = stride;
            this.size = size;
        }

        @Override
        public Integer get(int index) {
            Objects.checkIndex(index, size);
            return (int) (data[index * stride] >>> 32);
        }

        @Override
        public int size() {
            return size;
        }
    }

    /** A one-frame list (most messages): boxed, like the others, only when read. */
    static List<Integer> single(int frame) {
        return new Single(frame);
    }

    private static final class Single extends AbstractList<Integer> implements RandomAccess {
        private final int frame;

        Single(int frame) {
            this.frame = frame;
        }

        @Override
        public Integer get(int index) {
            Objects.checkIndex(index, 1);
            return frame;
        }

        @Override
        public int size() {
            return 1;
        }
    }

    private static final class View extends AbstractList<Integer> implements RandomAccess {
        private final int[] frames;
        private final int size;

        View(int[] frames, int size) {
            this.frames = frames;
            this.size = size;
        }

        @Override
        public Integer get(int index) {
            Objects.checkIndex(index, size);
            return frames[index];
        }

        @Override
        public int size() {
            return size;
        }
    }
}

package io.rdmascope.gui.packetlist;

import javafx.collections.ObservableListBase;

import java.util.AbstractList;
import java.util.List;

/**
 * The packet list's rows as frame numbers, without boxing a million of them: either every frame
 * 1..n (no filter, capture order; it grows while the file loads) or an array of frame numbers (a
 * filter's result, or a sorted order). Replacing the rows reports the old ones through a view of
 * the old array, so no copy is made either.
 */
public final class FrameRows extends ObservableListBase<Integer> {
    private int[] numbers; // null: every frame 1..size
    private int size;

    @Override
    public Integer get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return numbers == null ? index + 1 : numbers[index];
    }

    /** The frame number at {@code index}, unboxed. */
    public int frameAt(int index) {
        return numbers == null ? index + 1 : numbers[index];
    }

    @Override
    public int size() {
        return size;
    }

    /** Whether the rows are every frame in capture order (the list grows with the index). */
    public boolean isAll() {
        return numbers == null;
    }

    /** Shows every frame 1..n in order; adds rows when already showing all. */
    public void showAll(int n) {
        if (numbers == null && n >= size) {
            if (n > size) {
                beginChange();
                nextAdd(size, n);
                size = n;
                endChange();
            }
            return;
        }
        replace(null, n);
    }

    /** Shows frames {@code shown[0..n)} in that order; the array is kept, not copied. */
    public void show(int[] shown, int n) {
        replace(shown, n);
    }

    /** The array behind the rows (frame numbers in row order), or null when showing every frame; not a copy. */
    int[] toArrayView() {
        return numbers;
    }

    /** The shown frame numbers as a fresh array. */
    public int[] frameNumbers() {
        int[] out = new int[size];
        for (int i = 0; i < size; i++) {
            out[i] = frameAt(i);
        }
        return out;
    }

    private void replace(int[] shown, int n) {
        int[] oldNumbers = numbers;
        int oldSize = size;
        beginChange();
        if (oldSize > 0) {
            nextRemove(0, view(oldNumbers, oldSize));
        }
        numbers = shown;
        size = n;
        if (n > 0) {
            nextAdd(0, n);
        }
        endChange();
    }

    private static List<Integer> view(int[] numbers, int size) {
        return new AbstractList<>() {
            @Override
            public Integer get(int index) {
                return numbers == null ? index + 1 : numbers[index];
            }

            @Override
            public int size() {
                return size;
            }
        };
    }
}

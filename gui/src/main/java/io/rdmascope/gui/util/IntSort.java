package io.rdmascope.gui.util;

/** Stable sort of an int array by a comparator on its values, without boxing (a million rows sort in well under a second). */
public final class IntSort {
    /** Compares two ints. */
    @FunctionalInterface
    public interface IntComparator {
        int compare(int a, int b);
    }

    private IntSort() {
    }

    /** Sorts {@code a[0..n)} in place, stably. */
    public static void sort(int[] a, int n, IntComparator c) {
        int[] tmp = new int[n];
        int[] src = a;
        int[] dst = tmp;
        // insertion-sorted runs of 32, then bottom-up merges
        final int run = 32;
        for (int lo = 0; lo < n; lo += run) {
            int hi = Math.min(lo + run, n);
            for (int i = lo + 1; i < hi; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= lo && c.compare(a[j], v) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
        }
        for (int width = run; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    dst[k++] = c.compare(src[j], src[i]) < 0 ? src[j++] : src[i++];
                }
                while (i < mid) {
                    dst[k++] = src[i++];
                }
                while (j < hi) {
                    dst[k++] = src[j++];
                }
            }
            int[] t = src;
            src = dst;
            dst = t;
        }
        if (src != a) {
            System.arraycopy(src, 0, a, 0, n);
        }
    }
}

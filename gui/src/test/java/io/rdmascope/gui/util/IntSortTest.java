package io.rdmascope.gui.util;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The boxing-free sort behind the packet list's column sorts. */
class IntSortTest {

    @Test
    void sortsLikeArraysSort() {
        Random r = new Random(1);
        for (int n : new int[]{0, 1, 2, 31, 32, 33, 100, 1000, 65_537}) {
            int[] a = r.ints(n, -1000, 1000).toArray();
            int[] expected = a.clone();
            Arrays.sort(expected);
            IntSort.sort(a, n, Integer::compare);
            assertArrayEquals(expected, a, "n=" + n);
        }
    }

    @Test
    void isStable() {
        // sort positions by key; equal keys must keep their order
        int[] keys = {3, 1, 3, 1, 2, 3, 1};
        int[] positions = {0, 1, 2, 3, 4, 5, 6};
        IntSort.sort(positions, positions.length, (a, b) -> Integer.compare(keys[a], keys[b]));
        assertArrayEquals(new int[]{1, 3, 6, 4, 0, 2, 5}, positions);
    }
}

package io.rdmascope.replay;

/**
 * 24-bit packet sequence number arithmetic (IBTA Vol. 1 9.7.1; rc-transport-rules R1.1): PSNs
 * wrap at 2^24, and "ahead" means within the next 2^23 - 1 PSNs.
 */
public final class Psn {
    public static final int MASK = 0xFFFFFF;

    private Psn() {
    }

    public static int add(int psn, int n) {
        return (psn + n) & MASK;
    }

    /**
     * Signed distance from {@code b} to {@code a} on the 24-bit circle: positive when {@code a} is
     * ahead of {@code b}. The half point (2^23) counts as behind, as Linux rxe's psn_compare does.
     */
    public static int diff(int a, int b) {
        return ((a - b) << 8) >> 8;
    }

    /** Whether {@code psn} lies in the circular range [first, last]. */
    public static boolean within(int psn, int first, int last) {
        return diff(psn, first) >= 0 && diff(last, psn) >= 0;
    }
}

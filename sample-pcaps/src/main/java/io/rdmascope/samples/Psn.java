package io.rdmascope.samples;

/** 24-bit packet sequence number arithmetic (IBTA Vol. 1 9.7.1; rc-transport-rules R1.1). */
final class Psn {
    static final int MASK = 0xFFFFFF;

    private Psn() {
    }

    static int add(int psn, int n) {
        return (psn + n) & MASK;
    }

    /** Signed distance from {@code b} to {@code a} in the 24-bit circle: positive when a is ahead. */
    static int diff(int a, int b) {
        return ((a - b) << 8) >> 8;
    }
}

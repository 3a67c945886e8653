package io.rdmascope.capture;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class TimestampScaleTest {

    private static final BigInteger BILLION = BigInteger.valueOf(1_000_000_000L);

    @Test
    void defaultsToMicroseconds() {
        assertEquals(1_500_000L, TimestampScale.MICROSECONDS.toNanos(1_500));
        assertEquals(TimestampScale.of(6).toNanos(42), TimestampScale.MICROSECONDS.toNanos(42));
    }

    @Test
    void convertsEveryDecimalResolutionLikeExactArithmetic() {
        Random random = new Random(7);
        for (int exponent = 0; exponent <= 18; exponent++) {
            TimestampScale scale = TimestampScale.of(exponent);
            for (int i = 0; i < 1000; i++) {
                // Stay where the result fits 64 bits: the range real captures use.
                long units = exponent < 9 ? random.nextInt(Integer.MAX_VALUE) : random.nextLong() & Long.MAX_VALUE;
                BigInteger exact = BigInteger.valueOf(units).multiply(BILLION).divide(BigInteger.TEN.pow(exponent));
                assertEquals(exact.longValue(), scale.toNanos(units), "10^-" + exponent + " of " + units);
            }
        }
    }

    @Test
    void convertsEveryBinaryResolutionLikeExactArithmetic() {
        Random random = new Random(11);
        for (int exponent = 0; exponent <= 63; exponent++) {
            TimestampScale scale = TimestampScale.of(0x80 | exponent);
            for (int i = 0; i < 1000; i++) {
                long seconds = random.nextInt(2_000_000_000);
                long fraction = exponent == 0 ? 0 : random.nextLong() & ((1L << exponent) - 1);
                // Units = seconds * 2^n + fraction, as long as that fits an unsigned 64-bit count.
                BigInteger units = BigInteger.valueOf(seconds).shiftLeft(exponent).add(BigInteger.valueOf(fraction));
                if (units.bitLength() > 64) {
                    units = BigInteger.valueOf(fraction);
                }
                BigInteger exact = units.multiply(BILLION).shiftRight(exponent);
                assertEquals(exact.longValue(), scale.toNanos(units.longValue()), "2^-" + exponent + " of " + units);
            }
        }
    }

    @Test
    void refusesResolutionsTooFineToRepresent() {
        assertNull(TimestampScale.of(19));
        assertNull(TimestampScale.of(0x80 | 64));
    }
}

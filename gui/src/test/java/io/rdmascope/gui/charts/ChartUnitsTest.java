package io.rdmascope.gui.charts;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Units chosen to the data, at the boundaries where the unit changes. */
class ChartUnitsTest {

    @Test
    void ratesTakeTheLargestUnitInWhichTheyAreAtLeastOne() {
        assertEquals("0 b/s", ChartUnits.rate(0));
        assertEquals("999 b/s", ChartUnits.rate(999));
        assertEquals("1 kb/s", ChartUnits.rate(1_000));
        assertEquals("999 kb/s", ChartUnits.rate(999_000));
        assertEquals("1 Mb/s", ChartUnits.rate(1e6));
        assertEquals("1.5 Mb/s", ChartUnits.rate(1.5e6)); // the invisible 0.0015 Gb/s conversation
        assertEquals("1 Gb/s", ChartUnits.rate(1e9));
        assertEquals("100 Gb/s", ChartUnits.rate(100e9));
        assertEquals("2000 Gb/s", ChartUnits.rate(2e12)); // nothing above Gb/s: Wireshark's I/O graph stops there too
    }

    @Test
    void roundingHappensBeforeTheUnitIsChosen() {
        assertEquals("1 Mb/s", ChartUnits.rate(999_999));
        assertEquals("1 kb/s", ChartUnits.rate(999.6));
        assertEquals("1 µs", ChartUnits.duration(999.9));
        assertEquals("12.3 Gb/s", ChartUnits.rate(12_345_678_901.0));
    }

    @Test
    void durationsGoFromNanosecondsToSeconds() {
        assertEquals("0 ns", ChartUnits.duration(0));
        assertEquals("200 ns", ChartUnits.duration(200));
        assertEquals("1 µs", ChartUnits.duration(1_000));
        assertEquals("50 µs", ChartUnits.duration(50_000));
        assertEquals("1 ms", ChartUnits.duration(1_000_000));
        assertEquals("2.5 ms", ChartUnits.duration(2_500_000));
        assertEquals("1 s", ChartUnits.duration(1e9));
        assertEquals("100 s", ChartUnits.duration(1e11));
        assertEquals("µs", ChartUnits.durationUnit(999_999).symbol());
        assertEquals("ms", ChartUnits.durationUnit(1_000_000).symbol());
        assertEquals("Gb/s", ChartUnits.rateUnit(1e9).symbol());
        assertEquals("Mb/s", ChartUnits.rateUnit(999_999_999).symbol());
    }

    @Test
    void countsUseSiPrefixes() {
        assertEquals("1", ChartUnits.count(1));
        assertEquals("0.5", ChartUnits.count(0.5));
        assertEquals("100", ChartUnits.count(100));
        assertEquals("1 k", ChartUnits.count(1_000));
        assertEquals("1 M", ChartUnits.count(1e6));
    }

    @Test
    void ticksAreOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(0.01, ChartUnits.niceStep(0.1, 10), 1e-12);
        assertEquals(0.02, ChartUnits.niceStep(0.15, 10), 1e-12);
        assertEquals(0.05, ChartUnits.niceStep(0.3, 10), 1e-12);
        assertEquals(0.1, ChartUnits.niceStep(0.7, 10), 1e-12);
        assertEquals(1_000, ChartUnits.niceStep(150_000, 150), 1e-9);
        assertEquals(2_000, ChartUnits.niceStep(150_001, 150), 1e-9);
        assertEquals(1, ChartUnits.niceStep(0, 10), 0);
    }

    @Test
    void secondsCarryTheDecimalsTheirStepNeeds() {
        assertEquals(2, ChartUnits.decimalsFor(0.02));
        assertEquals(1, ChartUnits.decimalsFor(0.1));
        assertEquals(0, ChartUnits.decimalsFor(5));
        assertEquals(6, ChartUnits.decimalsFor(1e-6));
        assertEquals("17.52", ChartUnits.seconds(17.52, 0.01));
        assertEquals("17.500250", ChartUnits.seconds(17.50025, 1e-6));
        assertEquals("3", ChartUnits.seconds(3.0, 1));
    }
}

package io.rdmascope.gui.model;

import io.rdmascope.capture.PcapngReader;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Time display formats and the precision they print, without a capture. */
class TimeFormatTest {
    private static final long T = 1_781_621_897_319_865_123L; // 2026-06-16 14:58:17.319865123 UTC

    @Test
    void everyFormatTruncatesToTheCapturesDigits() {
        assertEquals("2026-06-16 14:58:17.319865", TimeFormat.UTC_DATE_AND_TIME.format(T, 0, 6, ZoneOffset.UTC));
        assertEquals("14:58:17.319865123", TimeFormat.UTC_TIME_OF_DAY.format(T, 0, 9, ZoneOffset.UTC));
        assertEquals("16:58:17.319865", TimeFormat.TIME_OF_DAY.format(T, 0, 6, ZoneOffset.ofHours(2)));
        assertEquals("1781621897.319865123", TimeFormat.EPOCH.format(T, 0, 9, ZoneOffset.UTC));
        assertEquals("0.000000400", TimeFormat.RELATIVE.format(T + 400, T, 9, ZoneOffset.UTC));
        assertEquals("-0.000001", TimeFormat.DELTA.format(T, T + 1_500, 6, ZoneOffset.UTC));
        assertEquals(TimeFormat.DELTA_DISPLAYED, TimeFormat.ofFlag("dd"));
    }

    @Test
    void precisionComesFromTheFilesTimestampUnit(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        try (var ns = io.rdmascope.capture.CaptureFiles.open(io.rdmascope.gui.Samples.scenario("rc_loss_nak"))) {
            ns.next(); // the interface description comes before the first frame
            assertEquals(9, CaptureInfo.of(ns).timeDigits(), "a pcapng interface with if_tsresol 9");
        }
        java.nio.file.Path erf = io.rdmascope.gui.Samples.scenario("native_ib_erf");
        try (var source = io.rdmascope.capture.CaptureFiles.open(erf)) {
            assertEquals(9, CaptureInfo.of(source).timeDigits(), erf + ": ERF's binary fraction shows as ns");
        }
    }

    @Test
    void framesWithSubMicrosecondTimesRaiseThePrecisionToNanoseconds() {
        FrameIndex index = new FrameIndex();
        index.setInfo(new CaptureInfo("test", CaptureInfo.MICROSECONDS));
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(64);
        index.append(new io.rdmascope.frame.Frame(1, 1_000_000_000L, 64, 64, 1, 0, b, 0));
        assertEquals(6, index.timeDigits());
        index.append(new io.rdmascope.frame.Frame(2, 1_000_000_400L, 64, 64, 1, 0, b, 0));
        assertEquals(9, index.timeDigits());
    }
}

package io.rdmascope.cli;

import io.rdmascope.capture.live.LiveCaptureOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The capture verb's options, checked before anything is opened (no libpcap needed). */
class CaptureSettingsTest {
    private static CaptureSettings parse(String filter, String output, boolean print, long count, List<String> a,
                                         List<String> b) {
        return CaptureSettings.parse(filter, output, print, count, a, b, 0, 0);
    }

    private static String error(String filter, String output, boolean print, long count, List<String> a,
                                List<String> b) {
        return assertThrows(DissectCommand.UsageError.class, () -> parse(filter, output, print, count, a, b))
                .getMessage();
    }

    @Test
    void defaultsAreTheRoceFilterAndPrintingWithoutW() {
        CaptureSettings s = parse(null, null, false, 0, List.of(), List.of());
        assertEquals("udp port 4791 or ether proto 0x8915", s.filter());
        assertTrue(s.defaultFilter());
        assertTrue(s.print(), "no -w: print decoded lines");
        assertEquals(LiveCaptureOptions.DEFAULT_SNAPLEN, s.snapLength());
        assertEquals(16 << 20, s.bufferBytes());
        assertNull(s.duration());
        LiveCaptureOptions o = s.options("lo", true, 0);
        assertTrue(o.defaultFilter());
        assertEquals(LiveCaptureOptions.DEFAULT_QUEUE_FRAMES, o.queueFrames());
    }

    @Test
    void anEmptyFilterMeansNoneAndAUserFilterIsNotTheDefault() {
        CaptureSettings none = parse("", "x.pcapng", false, 0, List.of(), List.of());
        assertNull(none.filter());
        assertFalse(none.print());
        assertNull(none.options("lo", true, 0).filter());
        CaptureSettings user = parse("udp port 4791", "x.pcapng", true, 5, List.of(), List.of());
        assertFalse(user.defaultFilter());
        assertTrue(user.print());
        LiveCaptureOptions o = user.options("eth0", false, 1000);
        assertEquals("udp port 4791", o.filter());
        assertFalse(o.defaultFilter());
        assertFalse(o.promiscuous());
        assertEquals(5, o.maxFrames());
        assertEquals(1000, o.queueFrames());
    }

    @Test
    void autostopTakesDurationInSecondsAsTsharkDoes() {
        assertEquals(Duration.ofSeconds(10), parse(null, null, false, 0, List.of("duration:10"), List.of()).duration());
        assertEquals(Duration.ofMillis(250), parse(null, null, false, 0, List.of("duration:0.25"), List.of()).duration());
        assertEquals("unsupported autostop condition 'packets:5' (rdmascope knows -a duration:SECONDS; use -c N to "
                + "stop after N frames)", error(null, null, false, 0, List.of("packets:5"), List.of()));
        assertEquals("-a duration:SECONDS needs a positive number of seconds, got 'soon'",
                error(null, null, false, 0, List.of("duration:soon"), List.of()));
        assertEquals("-a duration:SECONDS needs a positive number of seconds, got '-1'",
                error(null, null, false, 0, List.of("duration:-1"), List.of()));
    }

    @Test
    void ringBufferTakesFilesizeInMegabytesAndAFileCount() {
        CaptureSettings s = parse(null, "out.pcapng", false, 0, List.of(), List.of("filesize:100", "files:5"));
        assertEquals(100_000_000L, s.fileSizeBytes());
        assertEquals(5, s.files());
        assertEquals(1500L, parse(null, "o", false, 0, List.of(), List.of("filesize:0.0015")).fileSizeBytes());
        assertEquals("-b files:N needs -b filesize:MB: a ring switches files at a size",
                error(null, "out.pcapng", false, 0, List.of(), List.of("files:5")));
        assertEquals("-b needs -w FILE: the ring buffer's files are named after it",
                error(null, null, false, 0, List.of(), List.of("filesize:1")));
        assertEquals("-b cannot write to standard output (-w -)",
                error(null, "-", false, 0, List.of(), List.of("filesize:1")));
        assertEquals("unsupported ring buffer condition 'duration:60' (rdmascope knows -b filesize:MB and -b files:N)",
                error(null, "o", false, 0, List.of(), List.of("duration:60")));
        assertEquals("-b files:N needs a positive whole number of files, got 'two'",
                error(null, "o", false, 0, List.of(), List.of("filesize:1", "files:two")));
        assertEquals("-b filesize:MB needs a positive number of megabytes (1 MB = 1,000,000 bytes), got '0'",
                error(null, "o", false, 0, List.of(), List.of("filesize:0")));
    }

    @Test
    void otherMistakes() {
        assertEquals("-P with -w - would mix decoded lines into the capture on standard output",
                error(null, "-", true, 0, List.of(), List.of()));
        assertEquals("-c needs a positive frame count, got -3", error(null, null, false, -3, List.of(), List.of()));
        assertEquals("-s SNAPLEN must be between 1 and 262144 (0 for the default), got 300000",
                assertThrows(DissectCommand.UsageError.class,
                        () -> CaptureSettings.parse(null, null, false, 0, List.of(), List.of(), 300_000, 0)).getMessage());
        assertEquals(96, CaptureSettings.parse(null, null, false, 0, List.of(), List.of(), 96, 4).snapLength());
        assertEquals(4 << 20, CaptureSettings.parse(null, null, false, 0, List.of(), List.of(), 96, 4).bufferBytes());
    }

    @Test
    void usageErrorsThroughTheCommandLineAreOneLineWithStatus2() {
        Cli noInterface = Cli.run("capture", "-c", "1");
        assertEquals(2, noInterface.status());
        assertEquals("rdmascope: no interface given: -i IFACE ('rdmascope interfaces' lists them)\n", noInterface.err());
        Cli ring = Cli.run("capture", "-i", "lo", "-b", "files:3", "-w", "x.pcapng");
        assertEquals(2, ring.status());
        assertEquals("rdmascope: -b files:N needs -b filesize:MB: a ring switches files at a size\n", ring.err());
        assertEquals("", ring.out());
    }
}

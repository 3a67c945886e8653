package io.rdmascope.capture.live;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapngReader;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ring-buffer files: dumpcap's names, rotation at the size limit, the file count, the headers in every file. */
class PcapngOutputTest {
    private static final PcapngOutput.Interface LO =
            new PcapngOutput.Interface(LinkTypes.ETHERNET, 262_144, "lo", "udp port 4791", "Linux 6.1");
    private static final LocalDateTime T0 = LocalDateTime.of(2025, 3, 14, 15, 9, 26);

    /** A clock that moves one second each time it is read, in UTC, from T0. */
    private static Clock ticking() {
        return new Clock() {
            private int reads;

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return T0.toInstant(ZoneOffset.UTC).plus(Duration.ofSeconds(reads++));
            }
        };
    }

    private static Frame frame(long number, int bytes) {
        byte[] b = new byte[bytes];
        b[0] = (byte) number;
        return Frame.of(number, 1_700_000_000_000_000_000L + number, LinkTypes.ETHERNET, b);
    }

    @Test
    void ringFileNamesAreDumpcaps() {
        assertEquals("out_00001_20250314150926.pcapng", PcapngOutput.ringFileName("out.pcapng", 1, T0));
        assertEquals("cap.v2_00042_20250314150926.pcapng", PcapngOutput.ringFileName("cap.v2.pcapng", 42, T0));
        assertEquals("capture_00003_20250314150926", PcapngOutput.ringFileName("capture", 3, T0));
        assertEquals(".hidden_00001_20250314150926", PcapngOutput.ringFileName(".hidden", 1, T0));
        assertEquals("big_123456_20250314150926.pcapng", PcapngOutput.ringFileName("big.pcapng", 123_456, T0));
    }

    /** Bytes of the section and interface headers every file starts with. */
    private static long headerBytes() throws Exception {
        PcapngOutput probe = PcapngOutput.stream(new ByteArrayOutputStream(), List.of(LO), "test");
        probe.close();
        return probe.bytesWritten();
    }

    @Test
    void filesSwitchOnceTheyHoldTheLimitAndOnlyTheNewestNAreKept(@TempDir Path dir) throws Exception {
        // A 100-byte frame is a 132-byte block: with the limit at headers + 3 blocks, files hold 3 frames.
        long limit = headerBytes() + 3 * 132;
        PcapngOutput out = PcapngOutput.ring(dir.resolve("ring.pcapng"), limit, 3, List.of(LO), "test", ticking());
        for (int i = 1; i <= 22; i++) {
            out.write(frame(i, 100));
        }
        out.close();
        assertEquals(22, out.framesWritten());
        assertEquals(8, out.filesOpened());
        List<String> names;
        try (Stream<Path> s = Files.list(dir)) {
            names = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        // The clock ticks a second per file opened: file k is stamped T0 + (k - 1) s.
        assertEquals(List.of("ring_00006_20250314150931.pcapng", "ring_00007_20250314150932.pcapng",
                "ring_00008_20250314150933.pcapng"), names);
        assertEquals(5, out.deletedFiles().size());
        assertEquals(out.files().stream().map(p -> p.getFileName().toString()).toList(), names);

        // Every kept file is a complete capture with the interface block; together they hold frames 16..22.
        List<Long> firstBytes = new ArrayList<>();
        for (String name : names) {
            Path p = dir.resolve(name);
            int inFile = 0;
            try (PacketSource source = CaptureFiles.open(p)) {
                Frame f;
                while ((f = source.next()) != null) {
                    firstBytes.add((long) f.get(0));
                    inFile++;
                }
                PcapngReader.CaptureInterface idb = ((PcapngReader) source).interfaces().get(0);
                assertEquals("udp port 4791", idb.filter());
                assertEquals("Linux 6.1", idb.os());
                assertEquals("lo", idb.name());
            }
            if (name.contains("00008")) {
                assertEquals(1, inFile, "the last file holds what was left");
            } else {
                assertEquals(3, inFile, name);
                assertEquals(limit, Files.size(p), name + " closed exactly at its limit");
            }
        }
        assertEquals(List.of(16L, 17L, 18L, 19L, 20L, 21L, 22L), firstBytes);
    }

    @Test
    void withoutAFileCountEveryFileIsKeptAndNoneEndsEmpty(@TempDir Path dir) throws Exception {
        // A limit just over the headers: every file takes two frames (the first leaves it under the limit).
        PcapngOutput out = PcapngOutput.ring(dir.resolve("all"), headerBytes() + 133, 0, List.of(LO), "test",
                ticking());
        for (int i = 1; i <= 8; i++) {
            out.write(frame(i, 100));
        }
        out.close();
        List<Path> files = out.files();
        assertEquals(4, files.size());
        assertTrue(files.get(0).getFileName().toString().matches("all_00001_\\d{14}"));
        long total = 0;
        for (Path p : files) {
            try (PacketSource source = CaptureFiles.open(p)) {
                int n = 0;
                while (source.next() != null) {
                    n++;
                }
                assertTrue(n > 0, p + " is empty");
                total += n;
            }
        }
        assertEquals(8, total);
    }

    @Test
    void oneFileAndAStreamWriteTheSameBlocks(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("one.pcapng");
        PcapngOutput toFile = PcapngOutput.file(file, List.of(LO), "test");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PcapngOutput toStream = PcapngOutput.stream(bytes, List.of(LO), "test");
        for (int i = 1; i <= 5; i++) {
            toFile.write(frame(i, 70 + i));
            toStream.write(frame(i, 70 + i));
        }
        toFile.close();
        toStream.close();
        assertEquals(List.of(file), toFile.files());
        assertTrue(toStream.files().isEmpty());
        assertEquals(Files.size(file), toFile.bytesWritten(), "byte count tracks the file exactly");
        assertEquals(bytes.size(), toStream.bytesWritten());
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(file), bytes.toByteArray()));
    }

    @Test
    void aFileCountWithoutASizeIsRefused(@TempDir Path dir) {
        assertThrows(IllegalArgumentException.class,
                () -> PcapngOutput.ring(dir.resolve("x.pcapng"), 0, 3, List.of(LO), "test", ticking()));
        assertFalse(Files.exists(dir.resolve("x.pcapng")));
    }
}

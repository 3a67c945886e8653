package io.rdmascope.capture;

import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Each reader says how many digits of a second its timestamps resolve, as Wireshark shows them. */
class TimestampPrecisionTest {
    private static final long T = 1_767_225_600_123_456_789L;

    @TempDir
    Path dir;

    @Test
    void pcapMagicSaysMicroOrNanoseconds() throws IOException {
        for (boolean nanos : new boolean[] {false, true}) {
            Path file = dir.resolve("p" + nanos + ".pcap");
            try (PcapWriter w = PcapWriter.create(file, LinkTypes.ETHERNET, 65535, nanos)) {
                w.write(T, new byte[60], 60);
            }
            try (PacketSource in = CaptureFiles.open(file)) {
                Frame f = in.next();
                assertEquals(nanos ? 9 : 6, in.timestampDigits(f.interfaceId()));
            }
        }
    }

    @Test
    void pcapngInterfacesKeepTheirOwnResolution() throws IOException {
        Path file = dir.resolve("mixed.pcapng");
        try (PcapngWriter w = PcapngWriter.create(file, null, null, null)) {
            int micro = w.addInterface(LinkTypes.ETHERNET, 0, null, null, null, 6);
            int nano = w.addInterface(LinkTypes.ETHERNET, 0, null, null, null);
            int milli = w.addInterface(LinkTypes.ETHERNET, 0, null, null, null, 3);
            w.write(micro, T, new byte[60], 60);
            w.write(nano, T, new byte[60], 60);
            w.write(milli, T, new byte[60], 60);
        }
        try (PacketSource in = CaptureFiles.open(file)) {
            Frame us = in.next();
            assertEquals(6, in.timestampDigits(us.interfaceId()));
            assertEquals(1_767_225_600_123_456_000L, us.timeNanos()); // cut to the interface's unit
            Frame ns = in.next();
            assertEquals(9, in.timestampDigits(ns.interfaceId()));
            assertEquals(T, ns.timeNanos());
            Frame ms = in.next();
            assertEquals(3, in.timestampDigits(ms.interfaceId()));
            assertEquals(1_767_225_600_123_000_000L, ms.timeNanos());
        }
    }

    @Test
    void wiresharkPrecisionClassesOfTsresol() {
        // What tshark 4.0 printed for files with these if_tsresol values (-t e).
        int[] decimal = {0, 1, 2, 3, 3, 3, 6, 6, 6, 9, 9, 9};
        for (int exponent = 0; exponent < decimal.length; exponent++) {
            assertEquals(decimal[exponent], TimestampScale.digits(exponent), "10^-" + exponent);
        }
        int[][] binary = {{3, 0}, {4, 1}, {7, 2}, {10, 3}, {13, 3}, {14, 3}, {20, 6}, {23, 6}, {24, 6}, {30, 9}};
        for (int[] b : binary) {
            assertEquals(b[1], TimestampScale.digits(0x80 | b[0]), "2^-" + b[0]);
        }
    }

    @Test
    void writerRefusesDigitsItCannotWrite() throws IOException {
        try (PcapngWriter w = new PcapngWriter(java.io.OutputStream.nullOutputStream(), null, null, null)) {
            assertThrows(IllegalArgumentException.class, () -> w.addInterface(LinkTypes.ETHERNET, 0, null, null, null, 10));
        }
    }
}

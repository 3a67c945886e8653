package io.rdmascope.gui.model;

import io.rdmascope.capture.ErfReader;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapReader;
import io.rdmascope.capture.PcapngReader;

import java.util.List;

/**
 * What Statistics → Capture File Properties tells about the file itself (capinfos' first lines):
 * its format, and its timestamp precision in fraction digits, which every Time display format
 * shows (tshark prints a microsecond pcap with 6 digits and a nanosecond one with 9).
 *
 * <p>The capture module exposes no precision accessor common to every reader, so it is read here
 * from what each reader has: the pcap magic ({@link PcapReader#nanosecondResolution()}), the
 * pcapng interfaces' {@code if_tsresol} (the finest of them), and ERF's 32-bit binary fraction,
 * which Wireshark shows in nanoseconds. Frames whose times have digits below a microsecond raise
 * the precision further (see {@link FrameIndex#timeDigits()}).
 *
 * @param format    capinfos' "File type" wording
 * @param timeDigits fraction digits of the file's timestamps (6 or 9 in practice)
 */
public record CaptureInfo(String format, int timeDigits) {
    /** Microseconds: what a pcap file without the nanosecond magic holds, and the default. */
    public static final int MICROSECONDS = 6;
    public static final int NANOSECONDS = 9;

    /** What is known of a live capture: libpcap is asked for nanosecond timestamps. */
    public static CaptureInfo live() {
        return new CaptureInfo("live capture (libpcap)", NANOSECONDS);
    }

    /** The format and precision of an open reader, before its frames are read. */
    public static CaptureInfo of(PacketSource source) {
        if (source instanceof PcapReader p) {
            return new CaptureInfo("Wireshark/tcpdump/... - pcap",
                    p.nanosecondResolution() ? NANOSECONDS : MICROSECONDS);
        }
        if (source instanceof PcapngReader p) {
            return new CaptureInfo("Wireshark/... - pcapng", pcapngDigits(p.interfaces()));
        }
        if (source instanceof ErfReader) {
            return new CaptureInfo("Endace ERF capture", NANOSECONDS);
        }
        return new CaptureInfo(source.name(), MICROSECONDS);
    }

    /** The finest {@code if_tsresol} of the interfaces seen so far, as decimal digits (at most 9). */
    static int pcapngDigits(List<PcapngReader.CaptureInterface> interfaces) {
        int digits = interfaces.isEmpty() ? MICROSECONDS : 0;
        for (PcapngReader.CaptureInterface i : interfaces) {
            digits = Math.max(digits, tsresolDigits(i.tsresol()));
        }
        return Math.min(NANOSECONDS, digits);
    }

    /**
     * Decimal digits an {@code if_tsresol} byte gives (pcapng spec, section 4.2): top bit clear is
     * 10^-n seconds, so n digits; top bit set is 2^-n seconds, which needs ceil(n·log10 2) digits.
     */
    static int tsresolDigits(int tsresol) {
        int n = tsresol & 0x7F;
        if ((tsresol & 0x80) == 0) {
            return n;
        }
        return (int) Math.ceil(n * Math.log10(2));
    }
}

package io.rdmascope.gui.model;

import io.rdmascope.capture.ErfReader;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapReader;
import io.rdmascope.capture.PcapngReader;

/**
 * What Statistics → Capture File Properties tells about the file itself (capinfos' first lines):
 * its format, and its timestamp precision in fraction digits, which every Time display format
 * shows (tshark prints a microsecond pcap with 6 digits and a nanosecond one with 9).
 *
 * <p>The readers say it as {@code dissect -t} uses it ({@link PacketSource#timestampDigits}): the
 * pcap magic, each pcapng interface's {@code if_tsresol} in tshark's precision classes, ERF's binary
 * fraction as nanoseconds. Frames whose times have digits below a microsecond raise the precision
 * further (see {@link FrameIndex#timeDigits()}).
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

    /**
     * The format and precision of an open reader, before its frames are read: the digits tshark shows
     * for its timestamps ({@link PacketSource#timestampDigits}, tshark's precision classes), the
     * finest of a pcapng file's interfaces.
     */
    public static CaptureInfo of(PacketSource source) {
        if (source instanceof PcapReader p) {
            return new CaptureInfo("Wireshark/tcpdump/... - pcap", p.timestampDigits(0));
        }
        if (source instanceof PcapngReader p) {
            int digits = p.interfaces().isEmpty() ? MICROSECONDS : 0;
            for (int i = 0; i < p.interfaces().size(); i++) {
                digits = Math.max(digits, p.timestampDigits(i));
            }
            return new CaptureInfo("Wireshark/... - pcapng", digits);
        }
        if (source instanceof ErfReader e) {
            return new CaptureInfo("Endace ERF capture", e.timestampDigits(0));
        }
        return new CaptureInfo(source.name(), MICROSECONDS);
    }
}

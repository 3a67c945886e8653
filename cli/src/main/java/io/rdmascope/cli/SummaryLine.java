package io.rdmascope.cli;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.PacketSummary;

/**
 * tshark's one-line summary of a frame, exactly as {@code rdmascope dissect} prints it: number,
 * time (dissect's -t format), source → destination, protocol, length, info. Live capture prints with
 * it, relative time in nanoseconds (libpcap stamps them); a test holds it equal to {@code dissect}'s
 * lines for the same frames.
 */
final class SummaryLine {
    private SummaryLine() {
    }

    /** The line with the time relative to the first frame, to the nanosecond. */
    static void append(AsciiSink sink, Dissection d) {
        append(sink, d, TimeFormat.seconds(d.timeNanos() - d.referenceTimeNanos(), 9));
    }

    /** The line with {@code t} in the Time column. */
    static void append(AsciiSink sink, Dissection d, String t) {
        PacketSummary.Columns c = PacketSummary.of(d);
        Frame f = d.frame();
        String number = Long.toString(f.number());
        sink.append("     ", 0, Math.max(0, 5 - number.length()));
        sink.append(number).append(' ');
        sink.append("           ", 0, Math.max(0, 11 - t.length()));
        sink.append(t).append(' ');
        sink.append(c.source()).append(" \u2192 ").append(c.destination()).append(' ');
        sink.append(c.protocol()).append(' ').appendDecimal(io.rdmascope.proto.erf.Erf.shownWireLength(f)).append(' ').append(c.info())
                .append('\n');
    }
}

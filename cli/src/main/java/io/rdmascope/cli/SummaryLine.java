package io.rdmascope.cli;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.PacketSummary;

/**
 * tshark's one-line summary of a frame, exactly as {@code rdmascope dissect} prints it: number,
 * relative time in microseconds, source → destination, protocol, length, info. Live capture prints
 * with it; a test holds it equal to {@code dissect}'s lines for the same frames.
 */
final class SummaryLine {
    private SummaryLine() {
    }

    static void append(AsciiSink sink, Dissection d) {
        PacketSummary.Columns c = PacketSummary.of(d);
        Frame f = d.frame();
        String number = Long.toString(f.number());
        sink.append("     ", 0, Math.max(0, 5 - number.length()));
        sink.append(number).append(' ');
        long rel = d.timeNanos() - d.referenceTimeNanos();
        AsciiSink time = new AsciiSink(24);
        time.appendSeconds(rel);
        String t = time.toString();
        t = t.substring(0, t.length() - 3); // microseconds, as tshark's default column
        sink.append("           ", 0, Math.max(0, 11 - t.length()));
        sink.append(t).append(' ');
        sink.append(c.source()).append(" \u2192 ").append(c.destination()).append(' ');
        sink.append(c.protocol()).append(' ').appendDecimal(io.rdmascope.proto.erf.Erf.shownWireLength(f)).append(' ').append(c.info())
                .append('\n');
    }
}

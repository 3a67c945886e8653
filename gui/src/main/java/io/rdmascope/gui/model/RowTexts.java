package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;
import io.rdmascope.text.PacketSummary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Makes packet-list rows on demand, for the rows on screen only, and keeps the last few thousand:
 * the list is virtual, so a million-frame capture costs the rows shown, not a million strings.
 *
 * <p>Not thread-safe: the FX thread asks for visible rows; background sorts make their own.
 */
public final class RowTexts {
    private static final int CACHE = 4096;

    private final FrameDecoder decoder;
    private final IntFunction<String> timeText;
    private final List<FieldRegistry.Entry> columns;
    private final List<FrameFilter> coloring;
    private final AsciiSink sink = new AsciiSink(256);
    private final Map<Integer, PacketRow> cache = new LinkedHashMap<>(CACHE * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, PacketRow> eldest) {
            return size() > CACHE;
        }
    };

    /**
     * @param columns  fields of the added columns, in order
     * @param coloring compiled colouring rules in priority order; a null entry is a disabled or
     *                 broken rule that never matches
     */
    public RowTexts(FrameDecoder decoder, List<FieldRegistry.Entry> columns, List<FrameFilter> coloring) {
        this(decoder, n -> FrameDecoder.relativeTime(decoder.index().timeNanos(n) - decoder.index().firstTimeNanos(),
                decoder.index().timeDigits()),
                columns, coloring);
    }

    /**
     * @param timeText the Time column's text of a frame number (the display format, precision and
     *                 time references are the packet list's)
     */
    public RowTexts(FrameDecoder decoder, IntFunction<String> timeText, List<FieldRegistry.Entry> columns,
                    List<FrameFilter> coloring) {
        this.decoder = decoder;
        this.timeText = timeText;
        this.columns = List.copyOf(columns);
        this.coloring = new ArrayList<>(coloring);
    }

    public FrameDecoder decoder() {
        return decoder;
    }

    /** The row of frame {@code number}. */
    public PacketRow row(int number) {
        PacketRow r = cache.get(number);
        if (r == null) {
            r = make(number);
            cache.put(number, r);
        }
        return r;
    }

    /** Forgets every row (the analysis arrived, so colours may change). */
    public void clear() {
        cache.clear();
    }

    private PacketRow make(int number) {
        Dissection d = decoder.dissect(number);
        PacketSummary.Columns c = PacketSummary.of(d);
        String time = timeText.apply(number);
        List<String> extra = columns.isEmpty() ? List.of() : new ArrayList<>(columns.size());
        for (FieldRegistry.Entry e : columns) {
            extra.add(fieldText(e, d));
        }
        int rule = -1;
        for (int i = 0; i < coloring.size(); i++) {
            FrameFilter f = coloring.get(i);
            if (f != null && f.matches(d)) {
                rule = i;
                break;
            }
        }
        return new PacketRow(number, time, c.source(), c.destination(), c.protocol(), d.frame().wireLength(),
                c.info(), extra, rule);
    }

    /** Every occurrence of a field in a dissected frame, comma separated, as tshark's -T fields prints it. */
    public String fieldText(FieldRegistry.Entry e, Dissection d) {
        sink.clear();
        FieldText.appendOccurrences(sink, e, d, ',', FieldText.Occurrence.ALL);
        return sink.toString();
    }
}

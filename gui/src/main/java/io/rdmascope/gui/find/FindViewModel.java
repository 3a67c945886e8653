package io.rdmascope.gui.find;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.model.FilterCompiler;
import io.rdmascope.gui.model.FilterSyntaxException;
import io.rdmascope.gui.model.FrameDecoder;
import io.rdmascope.gui.model.FrameFilter;
import io.rdmascope.gui.packetlist.PacketListViewModel;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.gui.util.Job;
import io.rdmascope.text.PacketSummary;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.function.IntPredicate;

/**
 * Edit → Find Packet (Ctrl+F), Wireshark's find bar: look for the next displayed frame after the
 * selected one (wrapping around) that a display filter matches, whose packet-list text or bytes
 * contain a string, or whose bytes contain a hex sequence. The search runs in the background; the
 * frame found becomes the selected one, and the status says what happened.
 */
public final class FindViewModel {

    /** What the text is: Wireshark's "Display filter", "String" and "Hex value". */
    public enum Mode {
        DISPLAY_FILTER("Display filter"), STRING("String"), HEX("Hex value");

        private final String title;

        Mode(String title) {
            this.title = title;
        }

        @Override
        public String toString() {
            return title;
        }
    }

    /** Where a string is looked for (Wireshark's "Packet list" and "Packet bytes"). */
    public enum Where {
        PACKET_LIST("Packet list"), PACKET_BYTES("Packet bytes");

        private final String title;

        Where(String title) {
            this.title = title;
        }

        @Override
        public String toString() {
            return title;
        }
    }

    private final AppExecutors exec;
    private final FilterCompiler compiler;
    private final PacketListViewModel list;
    private final ObjectProperty<Mode> mode = new SimpleObjectProperty<>(this, "mode", Mode.DISPLAY_FILTER);
    private final ObjectProperty<Where> where = new SimpleObjectProperty<>(this, "where", Where.PACKET_LIST);
    private final StringProperty text = new SimpleStringProperty(this, "text", "");
    private final BooleanProperty caseSensitive = new SimpleBooleanProperty(this, "caseSensitive", false);
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private Job job;

    public FindViewModel(AppExecutors exec, FilterCompiler compiler, PacketListViewModel list) {
        this.exec = exec;
        this.compiler = compiler;
        this.list = list;
    }

    public ObjectProperty<Mode> mode() {
        return mode;
    }

    public ObjectProperty<Where> where() {
        return where;
    }

    public StringProperty text() {
        return text;
    }

    public BooleanProperty caseSensitive() {
        return caseSensitive;
    }

    /** What the last search found or why it could not run ("No packet found", "column 5: …"); empty before one. */
    public ReadOnlyStringProperty message() {
        return message.getReadOnlyProperty();
    }

    /**
     * Finds the next (or previous) displayed frame matching the text, starting after the selected
     * frame, and selects it. Nothing changes when the text is blank, invalid or matches nothing.
     */
    public void find(boolean forward) {
        Job.cancel(job);
        if (list.index() == null || list.rows().isEmpty()) {
            message.set("No capture is open");
            return;
        }
        IntPredicate matcher;
        try {
            matcher = matcher();
        } catch (IllegalArgumentException e) {
            message.set(e.getMessage());
            return;
        }
        if (matcher == null) {
            message.set("");
            return;
        }
        Job current = new Job();
        job = current;
        int from = list.selection().current().get();
        message.set("Searching…");
        // the rows are read on this (UI) thread: frame order in display order, as the list shows it
        int[] order = list.rows().frameNumbers();
        int start = from == 0 ? -1 : indexOf(order, from);
        exec.background().execute(() -> {
            int found = 0;
            int n = order.length;
            for (int k = 1; k <= n && found == 0; k++) {
                if ((k & 1023) == 0 && current.isCancelled()) {
                    return;
                }
                int r = Math.floorMod((start < 0 ? (forward ? -1 : n) : start) + (forward ? k : -k), n);
                if (matcher.test(order[r])) {
                    found = order[r];
                }
            }
            int result = found;
            exec.ui().execute(() -> {
                if (current.isCancelled()) {
                    return;
                }
                if (result == 0) {
                    message.set("No packet found");
                } else {
                    message.set(String.format(Locale.ROOT, "Found frame %d", result));
                    list.select(result);
                }
            });
        });
    }

    private static int indexOf(int[] order, int frame) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] == frame) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The test for one frame, made on the UI thread and run on a background one (its own decoder);
     * null for a blank text.
     *
     * @throws IllegalArgumentException with the message to show when the text is not valid for the mode
     */
    private IntPredicate matcher() {
        String t = text.get() == null ? "" : text.get().trim();
        if (t.isEmpty()) {
            return null;
        }
        FrameDecoder decoder = new FrameDecoder(list.index(), DissectorChain.standard());
        return switch (mode.get()) {
            case DISPLAY_FILTER -> {
                FrameFilter f;
                try {
                    f = compiler.compile(t).copy();
                } catch (FilterSyntaxException e) {
                    throw new IllegalArgumentException(e.getMessage());
                }
                yield n -> f.matches(decoder.dissect(n));
            }
            case HEX -> {
                byte[] wanted = parseHex(t);
                yield n -> contains(decoder.dissect(n), wanted, true);
            }
            case STRING -> {
                boolean exact = caseSensitive.get();
                if (where.get() == Where.PACKET_BYTES) {
                    byte[] wanted = (exact ? t : t.toLowerCase(Locale.ROOT)).getBytes(StandardCharsets.UTF_8);
                    yield n -> contains(decoder.dissect(n), wanted, exact);
                }
                String wanted = exact ? t : t.toLowerCase(Locale.ROOT);
                yield n -> {
                    Dissection d = decoder.dissect(n);
                    PacketSummary.Columns c = PacketSummary.of(d);
                    String line = String.join(" ", c.source(), c.destination(), c.protocol(), c.info());
                    return (exact ? line : line.toLowerCase(Locale.ROOT)).contains(wanted);
                };
            }
        };
    }

    /**
     * Hex bytes as Wireshark's find bar takes them: pairs of digits, optionally separated by
     * spaces, colons, dashes or dots ("0c 00 ff ff", "0c:00:ff:ff", "0c00ffff").
     */
    public static byte[] parseHex(String text) {
        String digits = text.replaceAll("[\\s:.\\-]", "");
        if (digits.startsWith("0x") || digits.startsWith("0X")) {
            digits = digits.substring(2);
        }
        if (digits.isEmpty() || digits.length() % 2 != 0 || !digits.matches("[0-9a-fA-F]+")) {
            throw new IllegalArgumentException("Not a hex byte sequence: " + text.trim()
                    + " (pairs of hex digits, e.g. 0c:00:ff:ff)");
        }
        return HexFormat.of().parseHex(digits);
    }

    /** Whether the frame's captured bytes contain {@code wanted} (ASCII letters folded unless {@code exact}). */
    static boolean contains(Dissection d, byte[] wanted, boolean exact) {
        int n = d.capturedLength();
        outer:
        for (int i = 0; i + wanted.length <= n; i++) {
            for (int j = 0; j < wanted.length; j++) {
                int b = d.u8(i + j);
                if (!exact && b >= 'A' && b <= 'Z') {
                    b += 'a' - 'A';
                }
                if ((byte) b != wanted[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}

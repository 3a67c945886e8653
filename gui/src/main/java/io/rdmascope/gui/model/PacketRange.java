package io.rdmascope.gui.model;

import java.util.BitSet;

/**
 * A packet range as Wireshark's export dialog takes it: comma-separated frame numbers and ranges,
 * "1-10,15,20-" (an open end runs to the last frame, an open start from the first).
 */
public final class PacketRange {
    private PacketRange() {
    }

    /**
     * The frames of {@code text} among 1..{@code count}.
     *
     * @throws IllegalArgumentException naming the part that is not a number or a range
     */
    public static BitSet parse(String text, int count) {
        BitSet out = new BitSet();
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("The range is empty (e.g. 1-10,15)");
        }
        for (String raw : text.split(",")) {
            String part = raw.trim();
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            try {
                int from;
                int to;
                if (dash < 0) {
                    from = to = Integer.parseInt(part);
                } else {
                    String a = part.substring(0, dash).trim();
                    String b = part.substring(dash + 1).trim();
                    from = a.isEmpty() ? 1 : Integer.parseInt(a);
                    to = b.isEmpty() ? count : Integer.parseInt(b);
                }
                if (from < 1 || to < from) {
                    throw new IllegalArgumentException("Not a range of frames: " + part);
                }
                int end = Math.min(to, count);
                if (from <= end) {
                    out.set(from, end + 1);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Not a frame number or range: " + part);
            }
        }
        return out;
    }
}

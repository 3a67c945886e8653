package io.rdmascope.gui.model;

import java.util.List;

/**
 * One packet-list colouring rule, as Wireshark's View → Coloring Rules: frames the filter matches
 * get these colours; the first enabled rule that matches wins.
 *
 * @param background CSS colour, e.g. {@code #ffb3b3}
 * @param foreground CSS colour of the text
 */
public record ColoringRule(String name, String filter, String background, String foreground, boolean enabled) {

    /**
     * The rules a new user starts with: what RDMA engineers look for first. Bad CRCs and malformed
     * frames first (they explain the rest), then NAKs, retransmissions and losses, then congestion.
     */
    public static List<ColoringRule> defaults() {
        return List.of(
                new ColoringRule("Bad ICRC/VCRC", "infiniband.invariant.crc.status == 0 || infiniband.variant.crc.status == 0",
                        "#12272e", "#f78787", true),
                new ColoringRule("Malformed", "_ws.malformed", "#000000", "#ffff00", true),
                new ColoringRule("NAK", "rdmascope.analysis.nak", "#a40000", "#fffc9c", true),
                new ColoringRule("RNR NAK", "rdmascope.analysis.rnr_nak", "#fcb86b", "#000000", true),
                new ColoringRule("Retransmission", "rdmascope.analysis.retransmission", "#ffb3b3", "#000000", true),
                new ColoringRule("Lost / gap", "rdmascope.analysis.psn_gap", "#ff6b6b", "#000000", true),
                new ColoringRule("Duplicate", "rdmascope.analysis.duplicate", "#e0c8f0", "#000000", true),
                new ColoringRule("CNP", "infiniband.bth.opcode == 0x80 || infiniband.bth.opcode == 0x81",
                        "#b0d8ff", "#000000", true),
                new ColoringRule("ECN CE", "rdmascope.analysis.ecn_ce", "#d8ecff", "#000000", true),
                new ColoringRule("CM", "infiniband.bth.destqp == 1", "#d6f5d6", "#000000", true),
                new ColoringRule("ACK", "infiniband.bth.opcode == 17", "#eeeeee", "#000000", true));
    }

    /** One line for the settings file: name, filter, colours, enabled, separated by tabs. */
    public String encode() {
        return String.join("\t", name.replace('\t', ' '), filter.replace('\t', ' '), background, foreground,
                Boolean.toString(enabled));
    }

    /** Reads {@link #encode()}'s line; null when it is not one. */
    public static ColoringRule decode(String line) {
        String[] p = line.split("\t", -1);
        if (p.length != 5) {
            return null;
        }
        return new ColoringRule(p[0], p[1], p[2], p[3], Boolean.parseBoolean(p[4]));
    }
}

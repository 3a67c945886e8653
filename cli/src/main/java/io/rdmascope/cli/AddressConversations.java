package io.rdmascope.cli;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.proto.erf.Erf;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code -z conv,TYPE} and {@code -z endpoints,TYPE} for Ethernet, IPv4, IPv6, UDP and TCP, printed
 * exactly as tshark 4.0 prints them (ui/cli/tap-iousers.c and tap-endpoints.c): rows by total frames,
 * most first, ties in order of first appearance; a conversation's "&lt;-" columns count the frames its
 * second address sent, "-&gt;" those its first (the source of its first frame) sent; bytes are
 * {@code frame.len}; start is relative to the capture's first frame. Addresses are never resolved (tshark
 * resolves MAC vendors unless -n; docs/cli.md). One row per address (and port) pair: tshark keeps a TCP
 * 4-tuple reused by a new connection apart by its stream number, rdmascope does not.
 */
final class AddressConversations {
    private static final String RULE = "================================================================================";

    /** A layer's table: its name in tshark's titles and the fields that give its addresses and ports. */
    enum Kind {
        ETH("Ethernet", "eth.src", "eth.dst", null, null),
        IP("IPv4", "ip.src", "ip.dst", null, null),
        IPV6("IPv6", "ipv6.src", "ipv6.dst", null, null),
        UDP("UDP", null, null, "udp.srcport", "udp.dstport"),
        TCP("TCP", null, null, "tcp.srcport", "tcp.dstport");

        final String title;
        final String src;
        final String dst;
        final String srcPort;
        final String dstPort;

        Kind(String title, String src, String dst, String srcPort, String dstPort) {
            this.title = title;
            this.src = src;
            this.dst = dst;
            this.srcPort = srcPort;
            this.dstPort = dstPort;
        }

        boolean ports() {
            return srcPort != null;
        }

        static Kind of(String name) {
            return switch (name) {
                case "eth" -> ETH;
                case "ip" -> IP;
                case "ipv6" -> IPV6;
                case "udp" -> UDP;
                case "tcp" -> TCP;
                default -> null;
            };
        }
    }

    /** Frames and bytes one way, first and last time seen. */
    static final class Counts {
        long txFrames;
        long txBytes;
        long rxFrames;
        long rxBytes;
        long startNanos = Long.MAX_VALUE;
        long stopNanos = Long.MIN_VALUE;

        void add(boolean tx, long bytes, long relNanos) {
            if (tx) {
                txFrames++;
                txBytes += bytes;
            } else {
                rxFrames++;
                rxBytes += bytes;
            }
            startNanos = Math.min(startNanos, relNanos);
            stopNanos = Math.max(stopNanos, relNanos);
        }

        long frames() {
            return txFrames + rxFrames;
        }
    }

    /** One side: an address and, for UDP and TCP, a port. */
    record Endpoint(String address, String port) {
        String name() {
            return port == null ? address : address + ":" + port;
        }
    }

    private final Kind kind;
    private final FieldRegistry.Entry[] fields;
    private final AsciiSink scratch = new AsciiSink(64);
    /** Conversations by their unordered pair; the key's first endpoint is the first frame's source. */
    private final Map<List<Endpoint>, Counts> conversations = new LinkedHashMap<>();
    private final Map<Endpoint, Counts> endpoints = new LinkedHashMap<>();

    AddressConversations(Kind kind) {
        this.kind = kind;
        FieldRegistry r = FieldRegistry.standard();
        fields = kind.ports()
                ? new FieldRegistry.Entry[] {r.lookup("ip.src"), r.lookup("ip.dst"), r.lookup("ipv6.src"),
                        r.lookup("ipv6.dst"), r.lookup(kind.srcPort), r.lookup(kind.dstPort)}
                : new FieldRegistry.Entry[] {r.lookup(kind.src), r.lookup(kind.dst)};
    }

    /** Counts a frame that has the layer; others are not this table's. */
    void frame(Dissection d) {
        Endpoint src;
        Endpoint dst;
        if (kind.ports()) {
            String sport = first(4, d);
            String dport = first(5, d);
            if (sport == null || dport == null) {
                return;
            }
            String sa = first(0, d);
            String da = first(1, d);
            if (sa == null || da == null) {
                sa = first(2, d);
                da = first(3, d);
            }
            if (sa == null || da == null) {
                return;
            }
            src = new Endpoint(sa, sport);
            dst = new Endpoint(da, dport);
        } else {
            String sa = first(0, d);
            String da = first(1, d);
            if (sa == null || da == null) {
                return;
            }
            src = new Endpoint(sa, null);
            dst = new Endpoint(da, null);
        }
        long bytes = Erf.shownWireLength(d.frame());
        long rel = d.timeNanos() - d.referenceTimeNanos();
        Counts c = conversations.get(List.of(src, dst));
        boolean forward = true;
        if (c == null) {
            c = conversations.get(List.of(dst, src));
            forward = c == null;
            if (c == null) {
                c = new Counts();
                conversations.put(List.of(src, dst), c);
            }
        }
        c.add(forward, bytes, rel);
        endpoints.computeIfAbsent(src, e -> new Counts()).add(true, bytes, rel);
        endpoints.computeIfAbsent(dst, e -> new Counts()).add(false, bytes, rel);
    }

    private String first(int field, Dissection d) {
        scratch.clear();
        int n = FieldText.appendOccurrences(scratch, fields[field], d, ',', FieldText.Occurrence.FIRST);
        return n == 0 ? null : scratch.toString();
    }

    void printConversations(StringBuilder out) {
        out.append(table(conversations, kind.title, kind.ports() ? 26 : 20));
    }

    void printEndpoints(StringBuilder out) {
        out.append(endpointTable(endpoints, kind.title, kind.ports() ? "Port" : null, 5));
    }

    /**
     * A conversation table; {@code nameWidth} is 20 for addresses alone, 26 for address:port names.
     * A row's key is its two endpoints, the first the source of the conversation's first frame; its
     * counts' tx are the frames the first sent.
     */
    static String table(Map<List<Endpoint>, Counts> rows, String title, int nameWidth) {
        StringBuilder out = new StringBuilder(256);
        out.append(RULE).append('\n').append(title).append(" Conversations\nFilter:<No Filter>\n");
        String pad = " ".repeat(2 * nameWidth + 7);
        out.append(pad).append("|       <-      | |       ->      | |     Total     |    Relative    |   Duration   |\n");
        out.append(pad).append("| Frames  Bytes | | Frames  Bytes | | Frames  Bytes |      Start     |              |\n");
        for (Map.Entry<List<Endpoint>, Counts> e : byFrames(rows)) {
            Counts c = e.getValue();
            out.append(left(e.getKey().get(0).name(), nameWidth)).append(" <-> ")
                    .append(left(e.getKey().get(1).name(), nameWidth));
            out.append("  ").append(right(c.rxFrames, 6)).append(' ').append(left(size(c.rxBytes), 9));
            out.append("  ").append(right(c.txFrames, 6)).append(' ').append(left(size(c.txBytes), 9));
            out.append("  ").append(right(c.frames(), 6)).append(' ').append(left(size(c.txBytes + c.rxBytes), 9));
            double start = seconds(c.startNanos);
            out.append("  ").append(fixed(start, 14, 9)).append("   ").append(fixed(seconds(c.stopNanos) - start, 12, 4))
                    .append('\n');
        }
        return out.append(RULE).append('\n').toString();
    }

    /** An endpoint table; {@code portHeader} null for addresses alone, else the column its ports go under. */
    static String endpointTable(Map<Endpoint, Counts> rows, String title, String portHeader, int portWidth) {
        StringBuilder out = new StringBuilder(256);
        out.append(RULE).append('\n').append(title).append(" Endpoints\nFilter:<No Filter>\n");
        out.append("                       |  ").append(portHeader == null ? "" : left(portHeader, portWidth + 1) + "||  ")
                .append("Packets  | |  Bytes  | | Tx Packets | | Tx Bytes | | Rx Packets | | Rx Bytes |\n");
        for (Map.Entry<Endpoint, Counts> e : byFrames(rows)) {
            Counts c = e.getValue();
            out.append(left(e.getKey().address(), 20)).append("      ");
            if (portHeader != null) {
                out.append(right(e.getKey().port(), portWidth)).append("     ");
            }
            out.append(right(c.frames(), 6)).append("     ").append(right(c.txBytes + c.rxBytes, 9))
                    .append("     ").append(right(c.txFrames, 6)).append("       ").append(right(c.txBytes, 9))
                    .append("      ").append(right(c.rxFrames, 6)).append("       ").append(right(c.rxBytes, 9))
                    .append("   \n");
        }
        return out.append(RULE).append('\n').toString();
    }

    /** Most frames first; a stable sort keeps ties in order of first appearance, as tshark's loop does. */
    static <K> List<Map.Entry<K, Counts>> byFrames(Map<K, Counts> rows) {
        List<Map.Entry<K, Counts>> list = new ArrayList<>(rows.entrySet());
        list.sort(Comparator.comparingLong((Map.Entry<K, Counts> e) -> e.getValue().frames()).reversed());
        return list;
    }

    /** Wireshark's format_size with SI prefixes: "2112 bytes", then whole kB, MB, … from ten of them. */
    static String size(long bytes) {
        String[] prefixes = {"k", "M", "G", "T", "P"};
        long power = 1;
        int p = -1;
        while (p + 1 < prefixes.length && bytes / (power * 1000) >= 10) {
            power *= 1000;
            p++;
        }
        return p < 0 ? bytes + " bytes" : bytes / power + " " + prefixes[p] + "B";
    }

    /** nstime_to_sec: seconds as a double, as tshark computes the columns before printing them. */
    static double seconds(long nanos) {
        return Math.floorDiv(nanos, 1_000_000_000L) + Math.floorMod(nanos, 1_000_000_000L) / 1e9;
    }

    /** printf's %W.Nf: the double's exact value rounded half-even (glibc's), right-aligned in W. */
    static String fixed(double value, int width, int decimals) {
        return right(new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString(), width);
    }

    static String right(Object value, int width) {
        String s = String.valueOf(value);
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    static String left(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}

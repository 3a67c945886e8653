package io.rdmascope.dissect;

import java.util.Locale;

/**
 * One "decode as" rule, Wireshark's Decode As in tshark's {@code -d} syntax: traffic that table
 * {@code table} selects by {@code selector} is decoded as {@code protocol}. {@code table==selector,
 * protocol} names one selector ({@code tcp.port==5445,smb_direct}, {@code udp.port==4792,infiniband},
 * {@code infiniband.bth.destqp==0x12,smb_direct}); {@code table,protocol} (a table without selectors,
 * as tshark writes {@code infiniband,smb_direct}) selects all of the table's traffic.
 *
 * <p>Which protocols a table accepts is not decided here: each protocol package declares the pairs it
 * answers to ({@link Registrations#decodeAs}), and {@link DissectorChain#withDecodeAs} refuses a rule
 * no package declared.
 *
 * @param table     the dispatch table, as tshark names it
 * @param selector  the port or queue pair number; {@link #ALL} for a table without selectors
 * @param protocol  the protocol's filter name, as tshark names it
 */
public record DecodeAs(String table, long selector, String protocol) {
    /** TCP port, either end of the connection (Wireshark's {@code tcp.port} table). */
    public static final String TCP_PORT = "tcp.port";
    /** UDP port, either end (Wireshark's {@code udp.port} table). */
    public static final String UDP_PORT = "udp.port";
    /**
     * The destination queue pair of an InfiniBand packet (RoCE or native): our selector for the RDMA
     * payload table, which Wireshark 4.0 offers only without a selector (see {@link #INFINIBAND}).
     */
    public static final String DEST_QP = "infiniband.bth.destqp";
    /** Wireshark 4.0's "Infiniband Payload" table: no selector, every packet's payload. */
    public static final String INFINIBAND = "infiniband";
    /** The selector of a rule on a table that has none. */
    public static final long ALL = -1;

    /**
     * Parses tshark's {@code -d} argument. Throws {@link IllegalArgumentException} with a message
     * that says what is wrong (not which tables exist: the chain knows those).
     */
    public static DecodeAs parse(String spec) {
        String s = spec.strip();
        int comma = s.lastIndexOf(',');
        if (comma <= 0 || comma == s.length() - 1) {
            throw new IllegalArgumentException("'" + spec + "' is not TABLE==VALUE,PROTOCOL");
        }
        String protocol = s.substring(comma + 1).strip().toLowerCase(Locale.ROOT);
        String selection = s.substring(0, comma).strip();
        int eq = selection.indexOf("==");
        if (eq < 0) {
            // tshark also accepts a single '=' between table and value
            eq = selection.indexOf('=');
            if (eq < 0) {
                return new DecodeAs(selection.toLowerCase(Locale.ROOT), ALL, protocol);
            }
        }
        String table = selection.substring(0, eq).strip().toLowerCase(Locale.ROOT);
        String value = selection.substring(selection.charAt(eq + 1) == '=' ? eq + 2 : eq + 1).strip();
        return new DecodeAs(table, number(value, spec), protocol);
    }

    private static long number(String value, String spec) {
        try {
            long v = value.startsWith("0x") || value.startsWith("0X") ? Long.parseLong(value.substring(2), 16)
                    : Long.parseLong(value);
            if (v < 0 || v > 0xFFFF_FFFFL) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' in '" + spec + "' is not a number (decimal or 0x hex)");
        }
    }

    /** Whether this rule selects {@code value} of {@code table}. */
    public boolean selects(String table, long value) {
        return this.table.equals(table) && (selector == ALL || selector == value);
    }

    /** The rule as tshark writes it. */
    @Override
    public String toString() {
        return selector == ALL ? table + "," + protocol : table + "==" + selector + "," + protocol;
    }
}

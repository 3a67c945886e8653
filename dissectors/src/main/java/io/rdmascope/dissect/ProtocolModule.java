package io.rdmascope.dissect;

import io.rdmascope.dissect.ops.OperationExtractor;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;

import java.util.List;

/**
 * What one protocol package contributes to the whole (issue 19: a protocol is one folder): its
 * header types, its entries in the dispatch tables and heuristic lists, and its packet-list and
 * detail-tree text. Each package has one implementation; {@code io.rdmascope.proto.Protocols#ALL}
 * lists them, and the field registry, the dissector chain, {@code PacketSummary} and
 * {@code TreeLabels} read that list instead of importing each package. Every method but
 * {@link #headers} has a default that contributes nothing, so a package implements only what it has.
 *
 * <p>Only {@link #register} reaches the per-frame fast path, and only once, when a chain is built;
 * the text hooks run on the slow path (frames shown or exported).
 */
public interface ProtocolModule {
    /** The package's header types, in the order the field registry (and {@code fields}) lists them. */
    List<HeaderType> headers();

    /** Adds the package's link types, ethertypes, IP protocols, hand-offs and heuristics. */
    default void register(Registrations r) {
    }

    /**
     * The package's commands and responses for the operation view ({@code rdmascope ops}), or null when
     * it carries none. Asked once, when a tracker is made; never on the dissection path.
     */
    default OperationExtractor operations() {
        return null;
    }

    // ---- Packet list (PacketSummary) ---------------------------------------------------------------

    /**
     * Source and destination columns from this package's headers, or null. Where several packages
     * answer, the highest {@link Addresses#precedence} wins (IP over GRH over LRH over Ethernet).
     */
    default Addresses addresses(Dissection d) {
        return null;
    }

    /**
     * Protocol and Info when this package carries the frame's transport and words the whole line
     * (InfiniBand for RDMA frames), or null to let the generic walk over layers decide.
     */
    default Columns carrier(Dissection d) {
        return null;
    }

    /** The Protocol column when a layer of this package is the top protocol, or null when not ours. */
    default String protocolColumn(Dissection d, int layer) {
        return null;
    }

    /** The Info column from this package's headers (UDP and TCP ports), or null. */
    default String info(Dissection d) {
        return null;
    }

    /** Info when no package gave {@link #info}: ARP, the protocol an IP header names; or null. */
    default String fallbackInfo(Dissection d) {
        return null;
    }

    /**
     * The columns of a frame whose payload this package decodes on top of what is below
     * ({@code below}: what the lower layers said), or null to keep them: iWARP over TCP, NVMe-oF
     * over InfiniBand.
     */
    default Columns upper(Dissection d, Columns below) {
        return null;
    }

    // ---- Detail tree (TreeLabels, ProtoTree) -------------------------------------------------------

    /** The tree line of one of this package's header nodes, or null for the header's plain name. */
    default String headerLabel(Dissection d, int layer) {
        return null;
    }

    /** Computed fields tshark shows as generated items, printed in brackets. */
    default boolean isGenerated(Field f) {
        return false;
    }

    /** Fields Wireshark adds hidden, for filters only, kept out of the tree. */
    default boolean isHidden(Field f, HeaderType h) {
        return false;
    }

    /** As {@link #isHidden(Field, HeaderType)}, for what depends on the frame (raw TCP numbers). */
    default boolean isHiddenIn(Field f, Dissection d, int layer) {
        return false;
    }

    /** Words for a boolean other than True/False ("Set"/"Not set"), or null. */
    default String booleanText(Field f, long value) {
        return null;
    }

    /** Appends what tshark prints after a field's value on its tree line ("Syndrome: 0, Ack"). */
    default void appendToFieldLabel(StringBuilder sb, Field f, Dissection d, int layer) {
    }

    /**
     * The fields shown inside field {@code f} when {@code f} is a subtree with no value of its own
     * (FT_NONE: "DDP control field" over its bits), or null.
     */
    default List<Field> subtreeMembers(Field f) {
        return null;
    }

    /**
     * The label of the one tree node Wireshark shows over several of our protocols (DDP and RDMAP
     * under one node), or null when header {@code h} is shown under its own protocol.
     */
    default String combinedProtocolLabel(HeaderType h) {
        return null;
    }

    /** Whether header {@code h} nests inside the previous node of its combined protocol (a Read Request in the RDMAP header). */
    default boolean nestsIn(HeaderType h, HeaderType previous) {
        return false;
    }

    /**
     * Whether header {@code h}, coming after a payload shown as another protocol, goes back into its
     * own protocol's node (the ICRC after the Data), as Wireshark shows it.
     */
    default boolean rejoinsItsProtocol(HeaderType h) {
        return false;
    }

    /** Source and destination text with the precedence that decides between packages. */
    record Addresses(String source, String destination, int precedence) {
        public static final int ETHERNET = 1;
        public static final int LRH = 2;
        public static final int GRH = 3;
        public static final int IP = 4;
    }

    /** The Protocol and Info columns. */
    record Columns(String protocol, String info) {
    }
}

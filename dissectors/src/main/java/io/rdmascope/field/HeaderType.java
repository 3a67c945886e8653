package io.rdmascope.field;

import java.util.List;

/**
 * A kind of header: its own filter name ({@code infiniband.bth}), display name, the protocol it
 * belongs to and its fields in wire order. A dissection is a list of header instances (layers),
 * each naming its {@code HeaderType}, start and length.
 *
 * @param abbrev      filter name of the header itself; equal to the protocol's for a protocol's
 *                    only header ({@code ip}, {@code udp})
 * @param name        display name in the detail tree
 * @param protocol    the protocol the header belongs to
 * @param selfType    how the header itself prints with {@code -e}: Wireshark registers most RDMA
 *                    sub-headers as FT_BYTES and protocols as FT_PROTOCOL
 * @param fields      fields in the order the detail tree shows them
 * @param fixedLength bytes every instance of the header has: where its last fixed-size field ends
 *                    (rest-of-header fields such as options or payloads come after it). Derived from the
 *                    fields, so that the dissector, the packet builder and the replay engine read one
 *                    size instead of restating it (issue 19)
 */
public record HeaderType(String abbrev, String name, Protocol protocol, FieldType selfType, List<Field> fields,
                         int fixedLength) {

    public HeaderType {
        fields = List.copyOf(fields);
    }

    /** A header type whose fixed length is where its fields end. */
    public HeaderType(String abbrev, String name, Protocol protocol, FieldType selfType, List<Field> fields) {
        this(abbrev, name, protocol, selfType, fields, endOfFixedFields(fields));
    }

    /** Where the last field of a fixed size ends; computed and rest-of-header fields have none. */
    private static int endOfFixedFields(List<Field> fields) {
        int end = 0;
        for (Field f : fields) {
            if (f.length() > 0 && f.length() != Field.REST_OF_HEADER) {
                end = Math.max(end, f.offset() + f.length());
            }
        }
        return end;
    }

    /** The header that is a whole protocol on its own ({@code udp}). */
    public static HeaderType protocolHeader(Protocol protocol, Field... fields) {
        return new HeaderType(protocol.abbrev(), protocol.name(), protocol, FieldType.PROTOCOL, List.of(fields));
    }

    /** A named sub-header of a protocol ({@code infiniband.reth}), printed as bytes like Wireshark does. */
    public static HeaderType subHeader(Protocol protocol, String abbrev, String name, Field... fields) {
        return new HeaderType(abbrev, name, protocol, FieldType.BYTES, List.of(fields));
    }

    /** A sub-header with no value of its own (FT_NONE in Wireshark). */
    public static HeaderType group(Protocol protocol, String abbrev, String name, Field... fields) {
        return new HeaderType(abbrev, name, protocol, FieldType.NONE, List.of(fields));
    }

    /** True when this header is its protocol's top node rather than a sub-header inside it. */
    public boolean isProtocolHeader() {
        return abbrev.equals(protocol.abbrev());
    }

    @Override
    public String toString() {
        return abbrev;
    }
}

package io.rdmascope.proto.data;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;

/** Bytes no dissector claims, as Wireshark's {@code data} protocol shows them. */
public final class Data {
    public static final Protocol PROTOCOL = new Protocol("data", "Data");
    public static final Field DATA = Field.restOfHeader("data.data", "Data", 0);
    public static final Field LEN = Field.computed("data.len", "Length", FieldType.UINT32, Base.DEC,
            (d, l) -> d.layerLength(l));
    public static final HeaderType HEADER = HeaderType.protocolHeader(PROTOCOL, DATA, LEN);

    private Data() {
    }

    /** Adds a data layer over {@code [offset, end)} when it is not empty. */
    public static void dissect(DissectorChain chain, Dissection d, int offset, int end) {
        int length = Math.min(end, d.capturedLength()) - offset;
        if (length > 0) {
            d.add(HEADER, offset, length);
        }
    }

    /**
     * As {@link #dissect}, for bytes that may lie past the frame ({@link Dissection#addReassembled}: a
     * PDU put together from several segments, or with its markers taken out).
     */
    public static void dissectReassembled(DissectorChain chain, Dissection d, int offset, int end) {
        int length = Math.min(end, d.capturedLength() + d.reassembledLength()) - offset;
        if (length > 0) {
            d.add(HEADER, offset, length);
        }
    }
}

package io.rdmascope.dissect;

import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;

import java.util.List;

/** Wireshark's {@code _ws.malformed} marker: a header ran past the captured bytes or lied about a length. */
public final class Malformed {
    public static final Protocol PROTOCOL = new Protocol("_ws.malformed", "Malformed Packet");
    public static final HeaderType HEADER = new HeaderType("_ws.malformed", "[Malformed Packet]", PROTOCOL,
            FieldType.PROTOCOL, List.of());

    private Malformed() {
    }
}

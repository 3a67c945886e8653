package io.rdmascope.proto.frame;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.proto.erf.Erf;
import io.rdmascope.proto.eth.Ethernet;

/**
 * Wireshark's {@code frame.*} fields. Every dissection starts with this pseudo-layer spanning the
 * whole frame. The relative time needs the first frame's time, which the reader of a whole capture
 * knows; {@link Dissection#setReferenceTimeNanos} supplies it.
 */
public final class FrameFields {
    public static final Protocol PROTOCOL = new Protocol("frame", "Frame");

    public static final Field NUMBER = Field.computed("frame.number", "Frame Number", FieldType.UINT32, Base.DEC,
            (d, l) -> d.frame().number());
    public static final Field TIME = Field.computed("frame.time", "Arrival Time", FieldType.ABSOLUTE_TIME,
            Base.NONE, (d, l) -> d.timeNanos());
    public static final Field TIME_EPOCH = Field.computed("frame.time_epoch", "Epoch Time",
            FieldType.RELATIVE_TIME, Base.NONE, (d, l) -> d.timeNanos());
    public static final Field TIME_DELTA = Field.computed("frame.time_delta",
            "Time delta from previous captured frame", FieldType.RELATIVE_TIME, Base.NONE,
            (d, l) -> d.previousTimeNanos() == Long.MIN_VALUE ? 0 : d.timeNanos() - d.previousTimeNanos());
    public static final Field TIME_RELATIVE = Field.computed("frame.time_relative",
            "Time since reference or first frame", FieldType.RELATIVE_TIME, Base.NONE,
            (d, l) -> d.timeNanos() - d.referenceTimeNanos());
    public static final Field INTERFACE_ID = Field.computed("frame.interface_id", "Interface id", FieldType.UINT32,
            Base.DEC, (d, l) -> d.frame().interfaceId());
    public static final Field LEN = Field.computed("frame.len", "Frame Length", FieldType.UINT32, Base.DEC,
            (d, l) -> Erf.shownWireLength(d.frame()));
    public static final Field CAP_LEN = Field.computed("frame.cap_len", "Capture Length", FieldType.UINT32,
            Base.DEC, (d, l) -> Erf.shownCapturedLength(d.frame()));
    public static final Field ENCAP_TYPE = Field.computed("frame.encap_type", "Encapsulation type",
            FieldType.UINT32, Base.DEC, (d, l) -> d.frame().linkType());
    public static final Field PROTOCOLS = Field.computed("frame.protocols", "Protocols in frame", FieldType.STRING,
            Base.NONE, new Field.Computation() {
                @Override
                public long value(Dissection d, int layer) {
                    return 0;
                }

                @Override
                public CharSequence text(Dissection d, int layer) {
                    return protocolsOf(d);
                }
            });

    public static final HeaderType HEADER = new HeaderType("frame", "Frame", PROTOCOL, FieldType.PROTOCOL,
            java.util.List.of(INTERFACE_ID, ENCAP_TYPE, TIME, TIME_EPOCH, TIME_DELTA, TIME_RELATIVE, NUMBER, LEN,
                    CAP_LEN, PROTOCOLS));

    private FrameFields() {
    }

    /**
     * "eth:ethertype:ip:udp:infiniband:data", as Wireshark lists the protocols of a frame: each
     * protocol once, in the order it first appears (the ICRC after a payload, or an Ethernet FCS
     * trailer, does not list its protocol again); "ethertype" repeats, once per link header.
     */
    public static String protocolsOf(Dissection d) {
        StringBuilder sb = new StringBuilder(64);
        java.util.List<Protocol> listed = new java.util.ArrayList<>(8);
        for (int i = 0; i < d.layerCount(); i++) {
            Protocol p = d.layerType(i).protocol();
            if (p == PROTOCOL || (listed.contains(p) && p != Ethernet.ETHERTYPE_PROTOCOL)) {
                continue;
            }
            if (!listed.isEmpty() && listed.get(listed.size() - 1) == p) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append(':');
            }
            sb.append(p.abbrev());
            listed.add(p);
        }
        return sb.toString();
    }
}

package io.rdmascope.build;

import io.rdmascope.dissect.RdmaContext.Encapsulation;
import io.rdmascope.field.HeaderType;

import java.util.List;

/**
 * A packet the builder made, with where it put everything: tests use the layout to know which bytes
 * are which without asking the dissector they are testing.
 *
 * @param bytes         the frame (Ethernet without FCS, or native IB from the LRH through the VCRC)
 * @param linkType      libpcap link type to record it under ({@code LinkTypes.ETHERNET} or {@code INFINIBAND})
 * @param encapsulation how the IB transport travels
 * @param headers       every header written, in wire order, BTH and its extension headers included
 * @param payloadAt     frame offset of the first payload byte (equals the end of the last header)
 * @param payloadLength payload bytes, pad excluded
 * @param padCount      pad bytes between payload and ICRC
 * @param icrcAt        frame offset of the ICRC
 * @param vcrcAt        frame offset of the VCRC, -1 when the encapsulation has none
 */
public record BuiltPacket(byte[] bytes, int linkType, Encapsulation encapsulation, List<Span> headers,
                          int payloadAt, int payloadLength, int padCount, int icrcAt, int vcrcAt) {

    public BuiltPacket {
        headers = List.copyOf(headers);
    }

    /** Where one header sits in the frame. */
    public record Span(HeaderType type, int start, int length) {
        public int end() {
            return start + length;
        }
    }

    /** The first header of {@code type}, or null. */
    public Span span(HeaderType type) {
        for (Span s : headers) {
            if (s.type() == type) {
                return s;
            }
        }
        return null;
    }

    /** Frame offset of the first header of {@code type}, or -1. */
    public int offsetOf(HeaderType type) {
        Span s = span(type);
        return s == null ? -1 : s.start();
    }

    /** The header types in wire order. */
    public List<HeaderType> headerTypes() {
        return headers.stream().map(Span::type).toList();
    }
}

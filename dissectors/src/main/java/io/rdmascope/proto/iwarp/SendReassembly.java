package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.Fragments;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;

import java.util.List;

/**
 * Wireshark 4.0's reassembly of Send payloads ({@code iwarp_rdma.send.*}, its "SMB Direct"
 * fragments), reproduced so that {@code -T fields} agrees: per TCP connection, both directions
 * together, the payload of every Send FPDU shown is appended in the order frames show them, until
 * one with the Last flag; a message of two or more fragments then lists the fragments' frames,
 * their count and the reassembled payload. Wireshark looks up reassemblies by frame, so a Send FPDU
 * shown in a frame where one was just completed is not added anywhere: it only says where that one
 * was reassembled ({@code iwarp_rdma.send.reassembled_in}). Sequence numbers and offsets play no
 * part here; the replay's messages are the exact account.
 */
final class SendReassembly {
    /** Fragment frames listed at most (more than any Send in a frame's layers can name anyway). */
    static final int MAX_FRAGMENTS = 1_024;
    /** Payload kept per connection for the reassembled data; past it the data is not shown. */
    static final int MAX_BYTES = 1 << 18;

    /** The fragments' frame numbers, written as 32-bit words into the reassembled bytes: one occurrence each. */
    static final Field FRAGMENT = Field.uint32("iwarp_rdma.send.fragment", "iWarp RDMA Send Fragment", 0)
            .printedAs(FieldType.FRAMENUM).alsoAt(Fragments.listOffsets(MAX_FRAGMENTS));
    static final Field FRAGMENT_COUNT = Field.computed("iwarp_rdma.send.fragment.count", "Fragment count",
            FieldType.UINT32, Base.DEC, (d, l) -> d.layerLength(l) / 4);
    static final HeaderType FRAGMENTS = HeaderType.group(DdpRdmap.RDMAP_PROTOCOL, "iwarp_rdma.send.fragments",
            "Reassembled SMB Direct Fragments", FRAGMENT, FRAGMENT_COUNT);
    static final Field REASSEMBLED_LENGTH = Field.computed("iwarp_rdma.send.reassembled.length",
            "Reassembled iWarp RDMA Send length", FieldType.UINT32, Base.DEC, (d, l) -> d.layerLength(l));
    static final Field REASSEMBLED_DATA = Field.restOfHeader("iwarp_rdma.send.reassembled.data",
            "Reassembled iWarp RDMA Send data", 0);
    static final HeaderType REASSEMBLED = HeaderType.group(DdpRdmap.RDMAP_PROTOCOL, "iwarp_rdma.send.reassembled",
            "Reassembled iWarp RDMA Send", REASSEMBLED_LENGTH, REASSEMBLED_DATA);
    static final Field REASSEMBLED_IN = Field.computed("iwarp_rdma.send.reassembled_in", "Reassembled PDU in frame",
            FieldType.FRAMENUM, Base.DEC, (d, l) -> d.frame().number());
    static final HeaderType REASSEMBLED_IN_HEADER = HeaderType.group(DdpRdmap.RDMAP_PROTOCOL,
            "iwarp_rdma.send.reassembly", "Send reassembly", REASSEMBLED_IN);

    static final List<HeaderType> HEADERS = List.of(FRAGMENTS, REASSEMBLED, REASSEMBLED_IN_HEADER);

    private final Fragments fragments = new Fragments(MAX_FRAGMENTS, MAX_BYTES);
    private long completedIn = -1;

    /**
     * A Send FPDU shown in {@code d}'s frame, its payload at frame offset {@code payloadAt}; adds the
     * reassembly layers where Wireshark shows them. Returns the layer of the reassembled Send when
     * this FPDU completed one of two or more fragments, else -1.
     */
    int show(Dissection d, boolean last, int payloadAt, int payloadLength) {
        long frame = d.frame().number();
        if (completedIn == frame) {
            d.add(REASSEMBLED_IN_HEADER, payloadAt, 0);
            return -1;
        }
        if (last && fragments.count() == 0) {
            completedIn = frame; // a Send in one FPDU: nothing to show, nothing to keep
            return -1;
        }
        fragments.add(d, payloadAt, payloadLength);
        if (!last) {
            return -1;
        }
        completedIn = frame;
        int layer = -1;
        if (fragments.count() > 1 && !fragments.overflowed() && d.layerCount() + 3 <= Dissection.MAX_LAYERS) {
            byte[] list = fragments.frameList();
            d.add(FRAGMENTS, d.addReassembled(list, 0, list.length), list.length);
            byte[] bytes = fragments.bytes();
            layer = d.add(REASSEMBLED, d.addReassembled(bytes, 0, bytes.length), bytes.length);
        }
        fragments.reset();
        return layer;
    }
}

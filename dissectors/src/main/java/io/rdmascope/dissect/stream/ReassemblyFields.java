package io.rdmascope.dissect.stream;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;

/**
 * The fields Wireshark's reassembly helper gives a protocol ({@code reassemble.h}'s fragment items):
 * {@code PREFIX.fragment} (each fragment's frame), {@code PREFIX.fragment.count}, {@code
 * PREFIX.reassembled.length} and {@code PREFIX.reassembled.data}, in a node for the frame list and
 * one over the reassembled bytes. SMB Direct's Data Transfer fragments and RPC-over-RDMA's chunks show
 * what they put together with them; the labels are each protocol's as tshark names them.
 *
 * @param fragments   the frame list's node ({@code PREFIX.fragments})
 * @param reassembled the node over the reassembled bytes ({@code PREFIX.reassembled})
 */
public record ReassemblyFields(HeaderType fragments, HeaderType reassembled) {
    /** Labels as tshark shows them ({@code tshark -G fields}). */
    public record Labels(String fragment, String fragments, String length, String data, String reassembled) {
    }

    /** The fields of {@code protocol} under {@code prefix}, a frame list of at most {@code maxFragments} entries. */
    public static ReassemblyFields of(Protocol protocol, String prefix, int maxFragments, Labels labels) {
        // The fragments' frame numbers, written as 32-bit words past the frame: one occurrence each.
        Field fragment = Field.uint32(prefix + ".fragment", labels.fragment(), 0).printedAs(FieldType.FRAMENUM)
                .alsoAt(Fragments.listOffsets(maxFragments));
        Field count = Field.computed(prefix + ".fragment.count", "Fragment count", FieldType.UINT32, Base.DEC,
                (d, l) -> d.layerLength(l) / 4);
        Field length = Field.computed(prefix + ".reassembled.length", labels.length(), FieldType.UINT32, Base.DEC,
                (d, l) -> d.layerLength(l));
        Field data = Field.restOfHeader(prefix + ".reassembled.data", labels.data(), 0);
        return new ReassemblyFields(HeaderType.group(protocol, prefix + ".fragments", labels.fragments(), fragment, count),
                HeaderType.group(protocol, prefix + ".reassembled", labels.reassembled(), length, data));
    }

    /**
     * Shows a reassembled message in {@code d}: the frame list ({@link Fragments#frameList}) and the
     * bytes, both written past the frame; returns where the bytes start, for the protocol to decode.
     */
    public int show(Dissection d, byte[] frameList, byte[] whole) {
        d.add(fragments, d.addReassembled(frameList, 0, frameList.length), frameList.length);
        int at = d.addReassembled(whole, 0, whole.length);
        d.add(reassembled, at, whole.length);
        return at;
    }

    /** As {@link #show}, for bytes already written past the frame at {@code at} (to be looked at first). */
    public void showAt(Dissection d, byte[] frameList, int at, int length) {
        d.add(fragments, d.addReassembled(frameList, 0, frameList.length), frameList.length);
        d.add(reassembled, at, length);
    }
}

package io.rdmascope.build;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.Frame;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Test helpers: hex text, dissecting built frames, listing layers. */
public final class Frames {
    public static final DissectorChain CHAIN = DissectorChain.standard();

    private Frames() {
    }

    /** Bytes from hex text; spaces and line breaks are only for reading. */
    public static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replaceAll("\\s+", ""));
    }

    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    public static Dissection dissect(byte[] bytes, int linkType) {
        Dissection d = new Dissection();
        CHAIN.dissect(Frame.of(1, 0, linkType, bytes), d);
        return d;
    }

    public static Dissection dissect(BuiltPacket p) {
        return dissect(p.bytes(), p.linkType());
    }

    /** Dissects the first {@code capturedLength} bytes of a frame that was longer on the wire (a snaplen cut). */
    public static Dissection dissectCut(byte[] bytes, int linkType, int capturedLength, Dissection d) {
        Frame frame = new Frame(1, 0, capturedLength, bytes.length, linkType, 0, ByteBuffer.wrap(bytes), 0);
        CHAIN.dissect(frame, d);
        return d;
    }

    public static List<HeaderType> layerTypes(Dissection d) {
        List<HeaderType> out = new ArrayList<>();
        for (int i = 0; i < d.layerCount(); i++) {
            out.add(d.layerType(i));
        }
        return out;
    }

    public static String layerNames(Dissection d) {
        return layerTypes(d).toString();
    }
}

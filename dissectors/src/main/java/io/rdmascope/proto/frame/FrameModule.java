package io.rdmascope.proto.frame;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.erf.Erf;

import java.util.List;

/** The frame pseudo-protocol: its fields and its tree line. */
public final class FrameModule implements ProtocolModule {
    @Override
    public List<HeaderType> headers() {
        return List.of(FrameFields.HEADER);
    }

    /** "Frame 7: 1086 bytes on wire (8688 bits), 1086 bytes captured (8688 bits)", lengths as tshark shows ERF's. */
    @Override
    public String headerLabel(Dissection d, int layer) {
        if (d.layerType(layer) != FrameFields.HEADER) {
            return null;
        }
        long wire = Erf.shownWireLength(d.frame());
        long cap = Erf.shownCapturedLength(d.frame());
        return "Frame " + d.frame().number() + ": " + wire + " bytes on wire (" + wire * 8 + " bits), " + cap
                + " bytes captured (" + cap * 8 + " bits)";
    }
}

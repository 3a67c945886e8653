package io.rdmascope.proto.data;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.Malformed;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.field.HeaderType;

import java.util.List;

/** Bytes no protocol claims, and Wireshark's malformed-packet marker: listed last. */
public final class DataModule implements ProtocolModule {
    @Override
    public List<HeaderType> headers() {
        return List.of(Data.HEADER, Malformed.HEADER);
    }

    @Override
    public String headerLabel(Dissection d, int layer) {
        return d.layerType(layer) == Data.HEADER ? "Data (" + d.layerLength(layer) + " bytes)" : null;
    }
}

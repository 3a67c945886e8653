package io.rdmascope.proto.erf;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.LinkTypes;

import java.util.List;

/** Endace ERF records (link type 197). */
public final class ErfModule implements ProtocolModule {
    @Override
    public List<HeaderType> headers() {
        return List.of(Erf.HEADER, Erf.ETH_HEADER);
    }

    @Override
    public void register(Registrations r) {
        r.linkType(LinkTypes.ERF, Erf::dissect);
    }

    @Override
    public String protocolColumn(Dissection d, int layer) {
        return d.layerType(layer).protocol().abbrev().equals("erf") ? "ERF" : null;
    }
}

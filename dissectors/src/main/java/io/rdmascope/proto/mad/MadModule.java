package io.rdmascope.proto.mad;

import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.field.HeaderType;

import java.util.List;

/**
 * Management datagrams and connection management. The MAD's Info wording ({@link MadInfo}) is
 * joined to the InfiniBand transport's by the InfiniBand package, which words the whole line.
 */
public final class MadModule implements ProtocolModule {
    @Override
    public List<HeaderType> headers() {
        return Mad.HEADERS;
    }

    @Override
    public void register(Registrations r) {
        r.managementDatagram(Mad::dissect);
    }
}

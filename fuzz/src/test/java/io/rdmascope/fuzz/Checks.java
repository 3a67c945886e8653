package io.rdmascope.fuzz;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.text.ProtoTree;

/** What every harness asks of a dissected frame: everything a front end might ask, none of it may throw. */
final class Checks {
    private Checks() {
    }

    static void everythingOn(Dissection d) {
        PacketSummary.of(d);
        StringBuilder out = new StringBuilder();
        ProtoTree.print(ProtoTree.build(d), out);
        if (d.rdma().isRdma()) {
            Crcs.icrcStatus(d);
            Crcs.vcrcStatus(d);
        }
        FieldRegistry.standard(); // cheap after the first call; keeps the registry in the harness's reach
    }
}

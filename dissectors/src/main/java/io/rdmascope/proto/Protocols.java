package io.rdmascope.proto;

import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.proto.data.DataModule;
import io.rdmascope.proto.erf.ErfModule;
import io.rdmascope.proto.eth.EthernetModule;
import io.rdmascope.proto.frame.FrameModule;
import io.rdmascope.proto.ib.InfiniBandModule;
import io.rdmascope.proto.ip.IpModule;
import io.rdmascope.proto.iser.IserModule;
import io.rdmascope.proto.iwarp.IwarpModule;
import io.rdmascope.proto.mad.MadModule;
import io.rdmascope.proto.nvmeof.NvmeOfModule;
import io.rdmascope.proto.rpcrdma.RpcRdmaModule;
import io.rdmascope.proto.smbdirect.SmbDirectModule;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Every protocol package this build decodes, one line each: the one list the field registry, the
 * dissector chain and the packet-list and tree text read (issue 19). A new protocol is its own
 * package with a {@link ProtocolModule} plus its line here (docs/adding-a-protocol.md).
 *
 * <p>The order is the field registry's (and {@code rdmascope fields}'s) and the order in which
 * heuristics are tried: lower layers first, data and the malformed marker last.
 */
public final class Protocols {
    public static final List<ProtocolModule> ALL = List.of(
            new FrameModule(),
            new ErfModule(),
            new EthernetModule(),
            new IpModule(),
            new InfiniBandModule(),
            new MadModule(),
            new IwarpModule(),
            new NvmeOfModule(),
            new IserModule(),
            new RpcRdmaModule(),
            new SmbDirectModule(),
            new DataModule());

    private Protocols() {
    }

    /** Whether any package says yes (a field it hides, a header that rejoins its protocol's node). */
    public static boolean any(Predicate<ProtocolModule> test) {
        for (ProtocolModule m : ALL) {
            if (test.test(m)) {
                return true;
            }
        }
        return false;
    }

    /** The first package's answer that is not null, in {@link #ALL} order, or null. */
    public static <T> T first(Function<ProtocolModule, T> answer) {
        for (ProtocolModule m : ALL) {
            T t = answer.apply(m);
            if (t != null) {
                return t;
            }
        }
        return null;
    }
}

package io.rdmascope.dissect.ops;

import io.rdmascope.dissect.Dissection;

/**
 * What an upper-layer protocol contributes to the operation view (issue 19, item 6): the commands and
 * responses a dissected frame carries, read from the layers the package's dissector added. A package
 * returns one from {@code ProtocolModule.operations()}; the operation tracker (replay engine,
 * {@code io.rdmascope.ops}) pairs what all of them report, matches data transfers and times it all, so
 * no central class switches over protocols.
 *
 * <p>Called only when someone asked for operations, right after the frame was dissected, while the
 * package's cross-frame state (its connections) is that frame's; and only for frames one of the chain's
 * payload heuristics claimed ({@link Dissection#carriesUpperLayer()}), the only frames a package's
 * layers can lie in, so a capture without storage traffic costs the extractors nothing (issue 18).
 */
@FunctionalInterface
public interface OperationExtractor {
    /** Reports the frame's command or response to {@code out}; nothing for a frame not of this protocol. */
    void extract(Dissection d, OperationEvents out);
}

package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.IcrcCheck;
import io.rdmascope.replay.ReplayResult;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Replays a capture file through the replay engine for {@code messages} and {@code flows}. A file that
 * cannot be opened fails at once; damage further in ends the replay where it is, so the caller can
 * report what was replayed up to there and then the error (as {@code dissect} prints every complete
 * frame before it).
 *
 * @param result  the finished replay (everything before the damage, if any)
 * @param failure the error that stopped the reading, or null when the file was read to its end
 */
record Replay(ReplayResult result, IOException failure) {

    static Replay of(Path file, List<Integer> rocePorts, IcrcCheck icrc) throws IOException {
        return of(file, rocePorts, true, icrc);
    }

    /**
     * @param keepMessages false for front ends that need only flows, observations and findings: memory
     *                     then stays bounded whatever the capture's length (a 5 GB capture under -Xmx512m)
     */
    static Replay of(Path file, List<Integer> rocePorts, boolean keepMessages, IcrcCheck icrc) throws IOException {
        DissectorChain chain = rocePorts.isEmpty() ? DissectorChain.standard()
                : DissectorChain.withRocePorts(rocePorts.stream().mapToInt(Integer::intValue).toArray());
        ReplayResult result = keepMessages ? new ReplayResult(icrc) : ReplayResult.withoutMessages(icrc);
        Dissection d = new Dissection();
        IOException failure = null;
        try (PacketSource source = CaptureFiles.open(file)) {
            try {
                Frame frame;
                while ((frame = source.next()) != null) {
                    chain.dissect(frame, d);
                    result.accept(d);
                }
            } catch (IOException e) {
                failure = e;
            }
        }
        return new Replay(result.finish(), failure);
    }

    /** After the output is written: the error that cut the replay short, if any (one line, exit 2). */
    void rethrowFailure() throws IOException {
        if (failure != null) {
            throw failure;
        }
    }
}

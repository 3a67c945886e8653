package io.rdmascope.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The capture and output options of the replay verbs (messages, flows, summary, explain): one capture,
 * or several vantage points' captures of the same traffic replayed once as their union (issue 20).
 */
final class CaptureArgs {
    @Parameters(paramLabel = "[NAME=]FILE", arity = "1..*",
            description = "pcap, pcapng, ERF or gzip-compressed capture; several: vantage points of the same "
                    + "traffic, replayed once as their union (docs/correlate.md), each named by its file or NAME=")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--json", description = "print the result as JSON (a stable contract, docs/cli.md)")
    boolean json;

    @Mixin
    ReplayOptions replay;

    /** Whether several captures were given: the verb replays their union. */
    boolean union() {
        return inputs.size() > 1;
    }

    /** The one capture (the verb's whole input when {@link #union()} is false). */
    Path file() {
        return Path.of(inputs.get(0));
    }

    /** The vantage points' union, indexed (clock offsets estimated, sightings identified); null for one capture. */
    Vantage vantage() throws IOException {
        return union() ? Vantage.index(Vantage.parse(inputs), replay) : null;
    }

    /** Replays the frames the options select: the one capture, or the union of several. */
    Replay replay(boolean keepMessages) throws IOException {
        if (union()) {
            return Replay.ofUnion(vantage(), replay.chain(), replay.icrc.check(), replay.threads());
        }
        ReplayOptions.Selection selection = replay.select(file());
        return Replay.of(file(), replay.chain(), selection, keepMessages, replay.icrc.check(), replay.threads());
    }
}

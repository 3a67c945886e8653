package io.rdmascope.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** The capture and output options of the one-capture replay verbs (messages, flows, summary, explain). */
final class CaptureArgs {
    @Parameters(paramLabel = "FILE", description = "pcap, pcapng, ERF or gzip-compressed capture")
    Path file;

    @Option(names = "--json", description = "print the result as JSON (a stable contract, docs/cli.md)")
    boolean json;

    @Mixin
    ReplayOptions replay;

    /** Replays the frames the options select. */
    Replay replay(boolean keepMessages) throws java.io.IOException {
        ReplayOptions.Selection selection = replay.select(file);
        return Replay.of(file, replay.chain(), selection, keepMessages, replay.icrc.check(), replay.threads());
    }
}

package io.rdmascope.cli;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.filter.DisplayFilter;
import io.rdmascope.filter.FilterException;
import io.rdmascope.filter.FilterFieldProvider;
import io.rdmascope.ops.Operation;
import io.rdmascope.replay.AnalysisFields;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.replay.IcrcCheck;
import io.rdmascope.replay.ReplayFeed;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of every verb that reads a capture (a picocli mixin): which frames are read
 * ({@code -Y}, {@code -c}), how they are decoded ({@code --roce-port}, {@code -d}, {@code --icrc}), and tshark's
 * {@code -n} and {@code -2}, accepted because what they ask for is what rdmascope always does
 * (docs/cli.md).
 */
final class ReplayOptions {
    @Option(names = {"-Y", "--display-filter"}, paramLabel = "FILTER",
            description = "only the frames this Wireshark display filter passes (docs/filters.md); with "
                    + "rdmascope.analysis fields the whole capture is replayed first to answer them (docs/cli.md)")
    String displayFilter;

    @Option(names = "-c", paramLabel = "N", description = "stop after reading N frames (passed by -Y or not, as tshark)")
    Long count;

    @Option(names = "--roce-port", paramLabel = "PORT", description = "also decode RoCEv2 on this UDP port")
    List<Integer> rocePorts = new ArrayList<>();

    @Option(names = {"-d", "--decode-as"}, paramLabel = "TABLE==VALUE,PROTOCOL",
            description = "decode traffic as PROTOCOL, tshark's -d syntax (docs/cli.md): tcp.port==5445,smb_direct, "
                    + "tcp.port==N,iwarp_mpa, udp.port==N,infiniband, infiniband.bth.destqp==0x12,smb_direct, "
                    + "infiniband,smb_direct; repeatable")
    List<String> decodeAs = new ArrayList<>();

    @Mixin
    IcrcOption icrc;

    @Option(names = "--threads", paramLabel = "N",
            description = "threads for reading and replaying: 1 does both on one; 2 or more (the default when the "
                    + "machine has them) replays while the next frames are read and dissected; the output is the same")
    Integer threads;

    @Option(names = "-n", description = "no name resolution (accepted for tshark users: rdmascope never resolves names)")
    boolean noNameResolution;

    @Option(names = "-2", description = "two-pass analysis (accepted for tshark users: rdmascope makes a first pass "
            + "whenever a filter names rdmascope.analysis fields)")
    boolean twoPass;

    /** {@code --threads}, by default the machine's processors; a value below 1 is a usage error. */
    int threads() {
        if (threads == null) {
            return ReplayFeed.defaultThreads();
        }
        if (threads < 1) {
            throw new DissectCommand.UsageError("--threads must be 1 or more, not " + threads);
        }
        return threads;
    }

    DissectorChain chain() {
        DissectorChain chain = rocePorts.isEmpty() ? DissectorChain.standard()
                : DissectorChain.withRocePorts(rocePorts.stream().mapToInt(Integer::intValue).toArray());
        return withDecodeAs(chain, decodeAs);
    }

    /**
     * {@code chain} with the {@code -d} rules; a rule that does not parse, or that no protocol package
     * answers to, is a usage error of one line naming what is accepted.
     */
    static DissectorChain withDecodeAs(DissectorChain chain, List<String> specs) {
        if (specs.isEmpty()) {
            return chain;
        }
        List<DecodeAs> rules = new ArrayList<>();
        try {
            for (String spec : specs) {
                rules.add(DecodeAs.parse(spec));
            }
            return chain.withDecodeAs(rules);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            throw new DissectCommand.UsageError("invalid --decode-as: " + message
                    + (message.contains("accepted:") ? "" : "; " + chain.decodeAsUsage()));
        }
    }

    /**
     * Which frames of {@code file} are read and passed: -c's limit and the compiled -Y filter. A
     * filter that names rdmascope.* fields is answered from a first replay of the frames -c reads.
     */
    Selection select(Path file) throws IOException {
        return select(file, null);
    }

    /**
     * As {@link #select(Path)}, answering rdmascope.* fields from {@code firstPass} when the caller
     * has already replayed the capture (dissect does for -e and -V), so that it is replayed once.
     */
    Selection select(Path file, FrameAnalysis firstPass) throws IOException {
        icrc.check(); // a bad --icrc is a usage error before any replay
        long limit = limit();
        if (displayFilter == null) {
            return new Selection(null, limit);
        }
        try {
            List<FilterFieldProvider> providers = new ArrayList<>();
            if (namesAnalysis()) {
                AnalysisFields analysis = new AnalysisFields();
                DisplayFilter.compile(displayFilter, FieldRegistry.standard(), List.of(analysis)); // errors first
                analysis.use(firstPass != null ? firstPass : firstPass(file));
                providers.add(analysis);
            }
            DisplayFilter f = DisplayFilter.compile(displayFilter, FieldRegistry.standard(), providers);
            return new Selection(f.matchesEverything() ? null : f, limit);
        } catch (FilterException e) {
            throw new DissectCommand.UsageError("invalid display filter: " + e.getMessage());
        }
    }

    /** Whether the -Y filter names rdmascope.* fields, which only a first replay can answer. */
    boolean namesAnalysis() {
        return displayFilter != null && displayFilter.contains("rdmascope.");
    }

    /** Reports a -Y filter that does not compile, before any replay is spent on it. */
    void checkFilter() {
        if (displayFilter == null) {
            return;
        }
        try {
            DisplayFilter.compile(displayFilter, FieldRegistry.standard(), List.of(new AnalysisFields()));
        } catch (FilterException e) {
            throw new DissectCommand.UsageError("invalid display filter: " + e.getMessage());
        }
    }

    /** The first of two passes (like tshark -2): the replay of the frames -c reads. */
    FrameAnalysis firstPass(Path file) throws IOException {
        // The storage operations too, for the rdmascope.op.* fields: the tracker rides on the same pass.
        List<Operation> operations = new ArrayList<>();
        Replay replay = Replay.of(file, chain(), new Selection(null, limit()), true, icrc.check(), threads(),
                operations::add);
        return FrameAnalysis.of(replay.result()).withOperations(operations);
    }

    /** -c as a limit (-1: none); zero or less is refused, as tshark refuses it ("The specified packet count is zero"). */
    private long limit() {
        if (count != null && count <= 0) {
            throw new DissectCommand.UsageError("-c takes a positive number of frames (got " + count + ")");
        }
        return count == null ? -1 : count;
    }

    /**
     * @param filter the -Y filter, or null to pass every frame
     * @param count  frames to read at most, or -1 for all
     */
    record Selection(DisplayFilter filter, long count) {
        /** Whether another frame may be read after {@code read} frames. */
        boolean more(long read) {
            return count < 0 || read < count;
        }

        boolean passes(Dissection d) {
            return filter == null || filter.matches(d);
        }
    }
}

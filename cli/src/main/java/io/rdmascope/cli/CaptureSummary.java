package io.rdmascope.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.rdmascope.text.ProtocolHierarchy;
import io.rdmascope.capture.CaptureFileReader;
import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.ErfReader;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapReader;
import io.rdmascope.capture.PcapngReader;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.ops.OperationRules;
import io.rdmascope.ops.OperationTracker;
import io.rdmascope.ops.ServiceResponseTimes;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.ReplayFeed;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import io.rdmascope.rules.Severity;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code rdmascope summary} reports, as records in the order {@code --json} prints them: capture
 * facts, the protocol hierarchy, opcode counts, one row per conversation and the findings. The text
 * output ({@link SummaryText}) shows the same content.
 *
 * @param capture       file, format, link types, frames, bytes, time span and average rate
 * @param protocols     the protocol hierarchy, like {@code tshark -q -z io,phs}
 * @param opcodes       InfiniBand transport frames per BTH opcode (RoCE and native IB), most frequent first
 * @param conversations the replay engine's flows, in conversation order
 * @param serviceResponseTimes storage operations' latency per protocol and opcode (like {@code tshark -z
 *                      rpc,srt}); left out of the JSON, and the text, when the capture has no operations,
 *                      so that a capture without storage protocols summarises as before
 * @param findings      findings of the default rules: how many of each severity, and per rule
 * @param vantage       several captures only (issue 20): the vantage points, their clock offsets and the
 *                      union's size ({@link Vantage#describe()}); absent for one capture
 */
record CaptureSummary(Capture capture, List<ProtocolHierarchy.Node> protocols, List<OpcodeCount> opcodes,
                      List<Conversation> conversations,
                      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ServiceResponseTimes.Row> serviceResponseTimes,
                      Findings findings,
                      @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode vantage) {

    /**
     * @param file             the file's name (its last path element)
     * @param format           pcap, pcapng or erf
     * @param compressed       whether it is gzip-compressed
     * @param fileBytes        its size, or null for a pipe
     * @param linkTypes        link types of its frames, in order of first appearance
     * @param frames           frames read
     * @param capturedBytes    bytes the capture holds of them
     * @param wireBytes        bytes they had on the wire ({@code frame.len})
     * @param firstTime        earliest frame time, UTC, ISO-8601 to the microsecond (null without frames)
     * @param lastTime         latest frame time
     * @param durationNanos    latest minus earliest
     * @param framesPerSecond  frames over the duration (null when it is 0)
     * @param wireBitsPerSecond wire bits over the duration (null when it is 0)
     */
    record Capture(String file, String format, boolean compressed, Long fileBytes, List<LinkType> linkTypes,
                   long frames, long capturedBytes, long wireBytes, String firstTime, String lastTime,
                   long durationNanos, BigDecimal framesPerSecond, BigDecimal wireBitsPerSecond) {
    }

    record LinkType(int linkType, String name, long frames) {
    }

    /** Frames with one BTH opcode; {@code name} is transport and operation ("RC SEND Only"). */
    record OpcodeCount(int opcode, String name, long frames) {
    }

    /**
     * One conversation: its two sides (A sent the first request), the messages each completed and
     * their bytes, goodput, retransmissions, NAKs and RNR NAKs of both sides, message latency.
     */
    record Conversation(String conversation, String transport, Side a, Side b, BigDecimal goodputBitsPerSecond,
                        long retransmissions, long naks, long rnrNaks, Long latencyP50Nanos,
                        Long latencyP99Nanos) {
    }

    /** One side of a conversation: its address and QP, the messages it sent that completed, and their bytes. */
    record Side(String address, Integer qpn, long messages, long bytes) {
    }

    /**
     * @param bySeverity how many findings of each severity ("error", "warning", "note"), all three present
     * @param rules      every rule that fired: most findings first, then most severe, then by id
     */
    record Findings(Map<String, Integer> bySeverity, List<RuleCount> rules) {
    }

    record RuleCount(String rule, String severity, int findings, String summary) {
    }

    private static final DateTimeFormatter ISO_MICROS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    /**
     * Reads, dissects and replays {@code file} in one pass. A file that cannot be opened fails at once;
     * damage further in ends the pass where it is and the summary covers the frames before it
     * ({@link Result#failure}).
     */
    static Result read(Path file, DissectorChain chain, ReplayOptions.Selection selection,
                       io.rdmascope.replay.IcrcCheck icrc, int threads, PrintWriter progressTo) throws IOException {
        // The flows count the messages; nothing here needs them kept.
        ReplayResult replay = ReplayResult.withoutMessages(icrc);
        Counted counted;
        String format;
        boolean compressed;
        try (PacketSource source = CaptureFiles.open(file);
             Progress progress = Progress.of(progressTo, file, source)) {
            format = formatOf(source);
            compressed = source instanceof CaptureFileReader r && r.compressed();
            counted = count(source, progress, chain, selection, replay, threads);
        }
        replay.finish();
        replay.addObservations(counted.rules().observations(replay));
        Long size = Files.isRegularFile(file) ? Files.size(file) : null;
        Path name = file.getFileName();
        CaptureSummary summary = new CaptureSummary(counted.counters().capture(name == null ? file.toString()
                : name.toString(), format, compressed, size), counted.counters().hierarchy.tree(),
                counted.counters().opcodes(), conversations(replay.flows()), counted.serviceResponseTimes(),
                findings(Rules.evaluate(replay.observations(), RulesConfig.defaults())), null);
        return new Result(summary, counted.failure());
    }

    /**
     * The summary of several vantage points' union (issue 20): the facts, hierarchy and opcodes count the
     * union's frames (each distinct packet once); the file facts name every capture (formats joined by
     * "+", sizes added); the findings include where the points disagree; {@code vantage} says who saw what.
     */
    static Result readUnion(Vantage vantage, DissectorChain chain, io.rdmascope.replay.IcrcCheck icrc, int threads,
                            PrintWriter progressTo) throws IOException {
        Replay replay;
        Counted counted;
        ReplayResult result = new ReplayResult(icrc); // placements give the disagreements their conversations
        try (PacketSource source = vantage.source();
             Progress progress = new Progress(progressTo, vantage.label(), 0, 0, System::nanoTime,
                     Progress::stderrIsATerminal)) {
            counted = count(source, progress, chain, new ReplayOptions.Selection(null, -1), result, threads);
        }
        result.finish();
        result.addObservations(counted.rules().observations(result));
        replay = new Replay(result, counted.failure() != null ? counted.failure() : vantage.union().failure(), vantage,
                vantage.union().disagreements(result));
        List<String> formats = new ArrayList<>();
        boolean compressed = false;
        long size = 0;
        for (Path file : vantage.files()) {
            try (PacketSource source = CaptureFiles.open(file)) {
                String f = formatOf(source);
                if (!formats.contains(f)) {
                    formats.add(f);
                }
                compressed |= source instanceof CaptureFileReader r && r.compressed();
            }
            size += Files.isRegularFile(file) ? Files.size(file) : 0;
        }
        CaptureSummary summary = new CaptureSummary(counted.counters().capture(vantage.label(),
                String.join("+", formats), compressed, size), counted.counters().hierarchy.tree(),
                counted.counters().opcodes(), conversations(result.flows()), counted.serviceResponseTimes(),
                findings(Rules.evaluate(replay.observations(), RulesConfig.defaults())), vantage.describe());
        return new Result(summary, replay.failure());
    }

    private static String formatOf(PacketSource source) {
        return source instanceof PcapngReader ? "pcapng" : source instanceof ErfReader ? "erf"
                : source instanceof PcapReader ? "pcap" : "unknown";
    }

    /** What one pass counted, and the error that cut it short (null when read to the end). */
    private record Counted(Counters counters, List<ServiceResponseTimes.Row> serviceResponseTimes,
                           OperationRules rules, IOException failure) {
    }

    /** Reads, dissects, counts and replays every frame of {@code source} the selection keeps. */
    private static Counted count(PacketSource source, Progress progress, DissectorChain chain,
                                 ReplayOptions.Selection selection, ReplayResult replay, int threads) {
        Counters c = new Counters();
        ServiceResponseTimes times = new ServiceResponseTimes();
        // The storage operations, for their service response times: fed on this thread, before the frame
        // goes to the replay thread (the protocols' connection state is this frame's only until then).
        OperationRules rules = new OperationRules();
        OperationTracker operations = rules.tracker(times);
        IOException failure = null;
        // The counts are made beside the replay (on the replay thread when there is one: issue 18 moved them
        // off the reader, which bounded the wall time), of exactly the frames the engine gets.
        try (ReplayFeed feed = ReplayFeed.into(replay, threads, c::count)) {
            long read = 0;
            Frame frame;
            while (selection.more(read) && (frame = source.next()) != null) {
                read++;
                progress.frame(frame);
                Dissection d = feed.next();
                chain.dissect(frame, d);
                if (!selection.passes(d)) {
                    continue; // -Y keeps a frame out of every count, as tshark -Y with -z
                }
                operations.accept(d);
                feed.replay();
            }
        } catch (IOException e) {
            failure = e;
        }
        operations.finish();
        return new Counted(c, times.rows(), rules, failure);
    }

    /**
     * @param summary what was read (everything before the damage, if any)
     * @param failure the error that stopped the reading, or null when the file was read to its end
     */
    record Result(CaptureSummary summary, IOException failure) {
        /** After the output is written: the error that cut the summary short, if any (one line, exit 2). */
        void rethrowFailure() throws IOException {
            if (failure != null) {
                throw failure;
            }
        }
    }

    /**
     * Per-frame counting: plain fields and arrays, no allocation per frame. Written by the thread that
     * replays ({@link ReplayFeed.FrameCounter}), read once the feed is closed.
     */
    private static final class Counters {
        final ProtocolHierarchy hierarchy = new ProtocolHierarchy();
        /** Frames per BTH opcode; DC packets after the 256 (their opcodes are RD's, their meaning not). */
        final long[] opcodes = new long[256 + 256 * 2];
        long frames;
        long capturedBytes;
        long wireBytes;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        int[] linkTypes = new int[4];
        long[] linkTypeFrames = new long[4];
        int linkTypeCount;
        int lastLinkType = -1;
        int lastLinkTypeIndex = -1;

        /** One frame the selection kept: capture facts, protocol hierarchy, opcode. */
        void count(Dissection d) {
            Frame f = d.frame();
            frame(f);
            hierarchy.add(d, f.wireLength());
            countOpcode(d.rdma());
        }

        private void frame(Frame f) {
            frames++;
            capturedBytes += f.capturedLength();
            wireBytes += f.wireLength();
            long t = f.timeNanos();
            if (t < first) {
                first = t;
            }
            if (t > last) {
                last = t;
            }
            int linkType = f.linkType();
            if (linkType != lastLinkType) {
                lastLinkType = linkType;
                lastLinkTypeIndex = linkTypeIndex(linkType);
            }
            linkTypeFrames[lastLinkTypeIndex]++;
        }

        private int linkTypeIndex(int linkType) {
            for (int i = 0; i < linkTypeCount; i++) {
                if (linkTypes[i] == linkType) {
                    return i;
                }
            }
            if (linkTypeCount == linkTypes.length) {
                linkTypes = Arrays.copyOf(linkTypes, linkTypeCount * 2);
                linkTypeFrames = Arrays.copyOf(linkTypeFrames, linkTypeCount * 2);
            }
            linkTypes[linkTypeCount] = linkType;
            return linkTypeCount++;
        }

        Capture capture(String file, String format, boolean compressed, Long fileBytes) {
            List<LinkType> types = new ArrayList<>();
            for (int i = 0; i < linkTypeCount; i++) {
                types.add(new LinkType(linkTypes[i], LinkTypes.name(linkTypes[i]), linkTypeFrames[i]));
            }
            long duration = frames == 0 ? 0 : last - first;
            return new Capture(file, format, compressed, fileBytes, List.copyOf(types), frames, capturedBytes,
                    wireBytes, frames == 0 ? null : time(first), frames == 0 ? null : time(last), duration,
                    duration > 0 ? rate(frames, duration) : null, duration > 0 ? rate(wireBytes * 8, duration) : null);
        }

        void countOpcode(io.rdmascope.dissect.RdmaContext rdma) {
            if (rdma.opcode < 0) {
                return;
            }
            int code = rdma.opcode & 0xFF;
            opcodes[rdma.dynamicallyConnected ? 256 + code * 2 + (rdma.dcConnect ? 1 : 0) : code]++;
        }

        List<OpcodeCount> opcodes() {
            List<OpcodeCount> out = new ArrayList<>();
            for (int slot = 0; slot < opcodes.length; slot++) {
                if (opcodes[slot] > 0) {
                    int code = slot < 256 ? slot : (slot - 256) / 2;
                    String name = (slot < 256 ? Opcodes.of(code) : Opcodes.dc(code, (slot & 1) == 1)).shortName();
                    out.add(new OpcodeCount(code, name, opcodes[slot]));
                }
            }
            out.sort(Comparator.comparingLong(OpcodeCount::frames).reversed()
                    .thenComparingInt(OpcodeCount::opcode));
            return List.copyOf(out);
        }
    }

    /** UTC, ISO-8601, microseconds (truncated, as tshark's times are shown to the µs here). */
    static String time(long nanos) {
        return ISO_MICROS.format(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                Math.floorMod(nanos, 1_000_000_000L) / 1000 * 1000));
    }

    /** Per second over {@code nanos}, exact to three decimals (plain digits in the JSON, never 1.2E9). */
    static BigDecimal rate(long count, long nanos) {
        return BigDecimal.valueOf(count).multiply(BigDecimal.valueOf(1_000_000_000L))
                .divide(BigDecimal.valueOf(nanos), 3, RoundingMode.HALF_EVEN);
    }

    private static List<Conversation> conversations(List<Flow> flows) {
        List<Conversation> out = new ArrayList<>(flows.size());
        for (Flow f : flows) {
            Flow.Side a = f.a();
            Flow.Side b = f.b();
            Flow.Latency l = f.latency();
            boolean timed = l != null && l.count() > 0;
            out.add(new Conversation(f.conversation(), f.transport().name(),
                    new Side(a.address(), a.qpn(), a.messages(), a.messageBytes()),
                    new Side(b.address(), b.qpn(), b.messages(), b.messageBytes()),
                    BigDecimal.valueOf(f.goodputBitsPerSecond()).setScale(3, RoundingMode.HALF_EVEN),
                    a.retransmissions() + b.retransmissions(), a.naks() + b.naks(), a.rnrNaks() + b.rnrNaks(),
                    timed ? l.p50Nanos() : null, timed ? l.p99Nanos() : null));
        }
        return List.copyOf(out);
    }

    private static Findings findings(List<Finding> findings) {
        Map<String, Integer> bySeverity = new LinkedHashMap<>();
        Rules.counts(findings).forEach((severity, count) -> bySeverity.put(severity.id(), count));
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, Finding> firsts = new LinkedHashMap<>();
        for (Finding f : findings) {
            counts.computeIfAbsent(f.rule(), r -> new int[1])[0]++;
            firsts.putIfAbsent(f.rule(), f);
        }
        List<RuleCount> rules = new ArrayList<>(counts.size());
        firsts.forEach((id, f) -> rules.add(new RuleCount(id, f.severity(), counts.get(id)[0], f.summary())));
        rules.sort(Comparator.comparingInt(RuleCount::findings).reversed()
                .thenComparing(r -> Severity.parse(r.severity()))
                .thenComparing(RuleCount::rule));
        return new Findings(bySeverity, List.copyOf(rules));
    }
}

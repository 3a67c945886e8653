package io.rdmascope.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Message;
import io.rdmascope.rules.Diagnosis;
import io.rdmascope.rules.DiagnosisText;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rdmascope explain}: per conversation, what went wrong first, what it caused and how the
 * connection ended, in the words of IBTA chapter 9 (issue 15). The same account as the GUI's
 * Diagnosis panel ({@link Diagnosis}).
 */
@Command(name = "explain", sortOptions = false,
        description = {"Tell, per conversation, what went wrong first, what it caused and the state at the end.",
                "The first anomaly is the conversation's first warning or error; the findings that follow from "
                        + "it (retransmissions, timeouts, out-of-window answers, a stall, a teardown) come next, "
                        + "then the messages left unfinished and how long the connection was silent before the "
                        + "capture ended. Conversations with nothing to say get one line. --json prints the same "
                        + "as a stable JSON contract."})
final class ExplainCommand implements Callable<Integer> {
    @ParentCommand
    Main parent;

    @Mixin
    CaptureArgs capture;

    @Option(names = "--conversation", paramLabel = "ID", description = "only this conversation (as check and flows number them)")
    String conversation;

    @Override
    public Integer call() throws IOException {
        Replay replay = capture.replay(true);
        List<Finding> findings = Rules.evaluate(replay.observations(), RulesConfig.defaults());
        Vantage vantage = replay.vantage();
        Diagnosis diagnosis = Diagnosis.of(replay.result(), findings);
        List<Diagnosis.Account> accounts = diagnosis.conversations();
        if (conversation != null) {
            String wanted = conversation.strip();
            accounts = accounts.stream().filter(a -> a.conversation().equals(wanted)).toList();
            if (accounts.isEmpty()) {
                throw new DissectCommand.UsageError("--conversation " + wanted + ": the capture has no such conversation ("
                        + diagnosis.conversations().size() + " conversations, numbered from 1)");
            }
        }
        BufferedOutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        if (capture.json) {
            ObjectNode root = json(vantage == null ? String.valueOf(capture.file().getFileName()) : vantage.label(),
                    diagnosis, accounts);
            if (vantage != null) {
                addSightings(root, accounts, vantage);
            }
            ReplayJson.writeValue(out, root);
        } else {
            StringBuilder sb = new StringBuilder(4096);
            if (vantage != null) {
                sb.append(vantage.describeText()).append('\n');
            }
            for (Diagnosis.Account a : accounts) {
                text(sb, a);
                if (vantage != null && !a.quiet()) {
                    sightingsText(sb, a, vantage);
                }
            }
            if (accounts.isEmpty()) {
                sb.append("no RDMA conversations in this capture\n");
            }
            // The label column ("  first       ") is 14 wide: continuations line up under the text.
            String text = Text.wrap(sb.toString(), parent.terminalColumns(), LABEL_WIDTH);
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        out.flush();
        replay.rethrowFailure();
        return Main.EXIT_OK;
    }

    // ---- text -------------------------------------------------------------------------------------------

    private static final String LABEL = "  %-11s ";
    /** What LABEL adds after the line's two leading spaces. */
    private static final int LABEL_WIDTH = 12;

    static void text(StringBuilder sb, Diagnosis.Account a) {
        if (a.quiet()) {
            sb.append(DiagnosisText.quiet(a)).append('\n');
            return;
        }
        sb.append(DiagnosisText.heading(a)).append('\n');
        boolean firstLine = true;
        for (Message m : a.before()) {
            sb.append(String.format(LABEL, firstLine ? "before it" : "")).append(DiagnosisText.message(m)).append('\n');
            firstLine = false;
        }
        sb.append(String.format(LABEL, "first")).append(DiagnosisText.finding(a.firstAnomaly())).append('\n');
        firstLine = true;
        for (Finding c : a.consequences()) {
            sb.append(String.format(LABEL, firstLine ? "then" : "")).append(DiagnosisText.finding(c)).append('\n');
            firstLine = false;
        }
        firstLine = true;
        for (Finding o : a.otherFindings()) {
            sb.append(String.format(LABEL, firstLine ? "also" : "")).append(DiagnosisText.finding(o)).append('\n');
            firstLine = false;
        }
        sb.append(String.format(LABEL, "at the end")).append(DiagnosisText.end(a.end())).append('\n');
    }

    /** A union's account (issue 20): the points and frames of each file behind every frame it cites. */
    private static void sightingsText(StringBuilder sb, Diagnosis.Account a, Vantage vantage) {
        StringBuilder line = new StringBuilder();
        for (long f : citedFrames(a)) {
            line.append(line.isEmpty() ? "" : ", ").append(f).append(" = ").append(vantage.text(f));
        }
        if (!line.isEmpty()) {
            sb.append(String.format(LABEL, "sightings")).append(line).append('\n');
        }
    }

    /** The frames an account names: its findings' first frames and its messages' first frames, in order. */
    private static java.util.SortedSet<Long> citedFrames(Diagnosis.Account a) {
        java.util.SortedSet<Long> frames = new java.util.TreeSet<>();
        List<Finding> findings = new ArrayList<>(a.consequences());
        findings.addAll(a.otherFindings());
        if (a.firstAnomaly() != null) {
            findings.add(a.firstAnomaly());
        }
        for (Finding f : findings) {
            if (!f.frames().isEmpty()) {
                frames.add(f.firstFrame());
            }
        }
        for (Message m : a.before()) {
            if (!m.frames().isEmpty()) {
                frames.add((long) m.frames().get(0));
            }
        }
        return frames;
    }

    /**
     * The multi-file additions to the JSON (docs/correlate.md): the vantage points at the top, and in each
     * conversation a {@code sightings} object from each cited union frame to the "NAME:frame"s that saw it.
     */
    private static void addSightings(ObjectNode root, List<Diagnosis.Account> accounts, Vantage vantage) {
        root.set("vantage", vantage.describe());
        ArrayNode list = (ArrayNode) root.get("conversations");
        for (int i = 0; i < accounts.size(); i++) {
            ObjectNode sightings = ((ObjectNode) list.get(i)).putObject("sightings");
            for (long f : citedFrames(accounts.get(i))) {
                sightings.set(Long.toString(f), vantage.json(List.of(f)).get(0));
            }
        }
    }

    // ---- JSON -------------------------------------------------------------------------------------------

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    static ObjectNode json(String capture, Diagnosis d, List<Diagnosis.Account> accounts) {
        ObjectNode root = NODES.objectNode();
        root.put("capture", capture);
        root.put("captureEndNanos", d.captureEndNanos());
        ArrayNode list = root.putArray("conversations");
        for (Diagnosis.Account a : accounts) {
            ObjectNode o = list.addObject();
            Flow f = a.flow();
            o.put("conversation", f.conversation());
            o.put("transport", f.transport().name());
            ArrayNode endpoints = o.putArray("endpoints");
            for (Flow.Side s : List.of(f.a(), f.b())) {
                ObjectNode e = endpoints.addObject();
                e.put("address", s.address());
                if (s.qpn() != null) {
                    e.put("qpn", s.qpn());
                }
            }
            o.put("setup", f.setup());
            o.put("state", f.state());
            if (a.firstAnomaly() == null) {
                o.putNull("firstAnomaly");
            } else {
                o.set("firstAnomaly", finding(a.firstAnomaly(), true));
            }
            ArrayNode before = o.putArray("before");
            a.before().forEach(m -> before.add(message(m, true)));
            ArrayNode consequences = o.putArray("consequences");
            a.consequences().forEach(c -> consequences.add(finding(c, false)));
            ArrayNode others = o.putArray("otherFindings");
            a.otherFindings().forEach(c -> others.add(finding(c, false)));
            ObjectNode end = o.putObject("end");
            ObjectNode counts = end.putObject("messages");
            a.end().messagesByStatus().forEach(counts::put);
            ArrayNode unfinished = end.putArray("unfinished");
            a.end().unfinished().forEach(m -> unfinished.add(message(m, false)));
            end.put("unfinishedCount", a.end().unfinishedCount());
            end.put("lastFrameNanos", a.end().lastFrameNanos());
            end.put("silenceBeforeCaptureEndNanos", a.end().silenceNanos());
            StringBuilder sb = new StringBuilder();
            text(sb, a);
            o.put("text", sb.toString());
        }
        return root;
    }

    private static ObjectNode finding(Finding f, boolean withReference) {
        ObjectNode o = NODES.objectNode();
        if (f.frames().isEmpty()) {
            o.putNull("frame");
        } else {
            o.put("frame", f.firstFrame());
        }
        o.put("rule", f.rule());
        o.put("severity", f.severity());
        o.put("summary", f.summary());
        o.put("detail", f.detail());
        if (withReference) {
            o.put("reference", f.reference());
        }
        return o;
    }

    private static ObjectNode message(Message m, boolean withCompletion) {
        ObjectNode o = NODES.objectNode();
        o.put("kind", m.kind().name());
        o.put("firstPsn", m.firstPsn());
        o.put("lastPsn", m.lastPsn());
        o.put("bytes", m.bytes());
        if (m.frames().isEmpty()) {
            o.putNull("firstFrame");
        } else {
            o.put("firstFrame", m.frames().get(0));
        }
        o.put("status", m.status());
        if (withCompletion && m.completionFrame() != null) {
            o.put("completionFrame", m.completionFrame());
        }
        return o;
    }
}

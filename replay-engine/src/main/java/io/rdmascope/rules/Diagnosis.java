package io.rdmascope.rules;

import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.ReplayResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code rdmascope explain} and the GUI's Diagnosis panel say about each conversation (issue 15):
 * a short causal account. The first anomaly (the conversation's first root-cause warning or error,
 * {@link Rules#markConsequences}), the message just before it (what the connection was doing when it
 * went wrong), what followed from it, other independent findings, and the state at the end.
 * Conversations with nothing to say get only their end state.
 *
 * @param captureEndNanos time of the capture's last frame (Long.MIN_VALUE for an empty capture)
 */
public record Diagnosis(long captureEndNanos, List<Account> conversations) {
    /** Messages named at the end (the unfinished ones) before "and N more". */
    public static final int NAMED = 5;

    public Diagnosis {
        conversations = List.copyOf(conversations);
    }

    /**
     * One conversation's account.
     *
     * @param firstAnomaly null when the conversation has no warning or error
     * @param before       the message begun last before the first anomaly (empty when none or no anomaly)
     * @param consequences findings that follow from the first anomaly, in the order they happened; the
     *                     end of the connection (a stall, a teardown) last
     * @param otherFindings later root-cause warnings and errors, and notes, in frame order
     */
    public record Account(Flow flow, Finding firstAnomaly, List<Message> before, List<Finding> consequences,
                          List<Finding> otherFindings, End end) {
        public Account {
            before = List.copyOf(before);
            consequences = List.copyOf(consequences);
            otherFindings = List.copyOf(otherFindings);
        }

        public String conversation() {
            return flow.conversation();
        }

        /** Nothing at or above warning happened in it. */
        public boolean quiet() {
            return firstAnomaly == null;
        }
    }

    /**
     * The state at the end: messages by status, the unfinished ones (failed or incomplete, the first
     * {@value #NAMED}), and how long before the capture ended the conversation's last frame came.
     */
    public record End(Map<String, Integer> messagesByStatus, List<Message> unfinished, int unfinishedCount,
                      long lastFrameNanos, long silenceNanos) {
        public End {
            messagesByStatus = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(messagesByStatus));
            unfinished = List.copyOf(unfinished);
        }
    }

    /** The account of every conversation of {@code result}, whose findings are {@code findings} ({@link Rules#evaluate}). */
    public static Diagnosis of(ReplayResult result, List<Finding> findings) {
        Map<String, List<Finding>> findingsOf = new LinkedHashMap<>();
        for (Finding f : findings) {
            if (f.conversation() != null) {
                findingsOf.computeIfAbsent(f.conversation(), k -> new ArrayList<>()).add(f);
            }
        }
        Map<String, List<Message>> messagesOf = new LinkedHashMap<>();
        for (Message m : result.messages()) {
            messagesOf.computeIfAbsent(m.conversation(), k -> new ArrayList<>()).add(m);
        }
        long end = result.captureEndNanos();
        List<Account> accounts = new ArrayList<>();
        for (Flow flow : result.flows()) {
            accounts.add(account(flow, findingsOf.getOrDefault(flow.conversation(), List.of()),
                    messagesOf.getOrDefault(flow.conversation(), List.of()), end));
        }
        return new Diagnosis(end, accounts);
    }

    private static Account account(Flow flow, List<Finding> findings, List<Message> messages, long captureEnd) {
        Finding first = null;
        for (Finding f : findings) {
            if (f.rootCause() && Severity.parse(f.severity()) != Severity.NOTE && !f.rule().contains("-CAP-")) {
                first = f;
                break;
            }
        }
        List<Finding> consequences = new ArrayList<>();
        List<Finding> others = new ArrayList<>();
        for (Finding f : findings) {
            if (f == first) {
                continue;
            }
            if (first != null && !f.rootCause() && f.causedBy() != null && f.causedBy() == first.firstFrame()) {
                consequences.add(f);
            } else {
                others.add(f);
            }
        }
        // What ended the connection is told last: a stall or a teardown sums up what came before it.
        consequences.sort(Comparator.comparing((Finding f) -> endsConnection(f) ? 1 : 0)
                .thenComparingLong(Finding::firstFrame));
        List<Message> before = new ArrayList<>();
        if (first != null) {
            long at = first.firstFrame();
            Message last = null;
            long lastBegun = Long.MIN_VALUE;
            for (Message m : messages) {
                List<Integer> frames = m.frames();
                long begun = frames.isEmpty() ? Long.MAX_VALUE : frames.get(0);
                // The comparisons first: contains walks (and boxes) every frame of the message.
                if (begun < at && (last == null || begun > lastBegun) && !frames.contains((int) at)) {
                    last = m;
                    lastBegun = begun;
                }
            }
            if (last != null) {
                before.add(last);
            }
        }
        Map<String, Integer> byStatus = new LinkedHashMap<>();
        for (String status : List.of(Message.COMPLETED, Message.FAILED, Message.INCOMPLETE, Message.DROPPED)) {
            byStatus.put(status, 0);
        }
        List<Message> unfinished = new ArrayList<>();
        int unfinishedCount = 0;
        for (Message m : messages) {
            byStatus.merge(m.status(), 1, Integer::sum);
            if (Message.FAILED.equals(m.status()) || Message.INCOMPLETE.equals(m.status())) {
                unfinishedCount++;
                if (unfinished.size() < NAMED) {
                    unfinished.add(m);
                }
            }
        }
        long silence = captureEnd == Long.MIN_VALUE ? 0 : Math.max(0, captureEnd - flow.lastTimeNanos());
        return new Account(flow, first, before, consequences, others,
                new End(byStatus, unfinished, unfinishedCount, flow.lastTimeNanos(), silence));
    }

    /** A stall or a teardown: the end of the story, told after what led to it. */
    static boolean endsConnection(Finding f) {
        return f.rule().equals("IB-RC-STALL-001") || f.rule().equals("IB-RC-TEARDOWN-001");
    }
}

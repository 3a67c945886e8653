package io.rdmascope.samples;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects a scenario's truth while it plays; {@link #freeze} turns it into a {@link Truth}. */
final class TruthLog {
    private final List<ConnectionRecord> connections = new ArrayList<>();
    private final List<MessageRecord> messages = new ArrayList<>();
    private final List<Truth.Observation> observations = new ArrayList<>();
    private final List<Truth.Finding> findings = new ArrayList<>();

    /** A connection's truth, filled in as it is set up and used. */
    static final class ConnectionRecord {
        final int id;
        final String service;
        final String encapsulation;
        Truth.Endpoint requester;
        Truth.Endpoint responder;
        Integer pmtu;
        String setup = "none";
        final List<Truth.Transition> lifecycle = new ArrayList<>();

        ConnectionRecord(int id, String service, String encapsulation) {
            this.id = id;
            this.service = service;
            this.encapsulation = encapsulation;
        }
    }

    /** A message's truth; frames are added as packets carrying it are captured. */
    static final class MessageRecord {
        final int id;
        final int connection;
        final String kind;
        final int firstPsn;
        final int lastPsn;
        final long bytes;
        final List<Integer> requestFrames = new ArrayList<>();
        final List<Integer> responseFrames = new ArrayList<>();
        Integer completionFrame;
        String status = "incomplete";
        Long latencyNanos;
        Long immediate;
        Long invalidatedRkey;

        MessageRecord(int id, int connection, String kind, int firstPsn, int lastPsn, long bytes) {
            this.id = id;
            this.connection = connection;
            this.kind = kind;
            this.firstPsn = firstPsn;
            this.lastPsn = lastPsn;
            this.bytes = bytes;
        }
    }

    ConnectionRecord connection(String service, String encapsulation) {
        ConnectionRecord c = new ConnectionRecord(connections.size() + 1, service, encapsulation);
        connections.add(c);
        return c;
    }

    MessageRecord message(int connection, String kind, int firstPsn, int lastPsn, long bytes) {
        MessageRecord m = new MessageRecord(messages.size() + 1, connection, kind, firstPsn, lastPsn, bytes);
        messages.add(m);
        return m;
    }

    /** Records an observation and, when its kind raises a rule, the finding. */
    void observe(Expected kind, Integer frame, Integer connection, Integer psn, String detail) {
        observations.add(new Truth.Observation(kind.id(), frame, connection, psn, detail));
        if (kind.rule() != null) {
            findings.add(new Truth.Finding(kind.rule(), kind.severity().id(), frame, connection));
        }
    }

    Truth freeze(String scenario, String description, long seed, String capture, String format, int frames) {
        List<Truth.Connection> cs = connections.stream().map(c -> new Truth.Connection(c.id, c.service,
                c.encapsulation, c.requester, c.responder, c.pmtu, c.setup, List.copyOf(c.lifecycle))).toList();
        List<Truth.Message> ms = messages.stream().map(m -> new Truth.Message(m.id, m.connection, m.kind, m.firstPsn,
                m.lastPsn, m.bytes, List.copyOf(m.requestFrames), List.copyOf(m.responseFrames), m.completionFrame,
                m.status, m.latencyNanos, m.immediate, m.invalidatedRkey)).toList();
        Comparator<Integer> framesFirst = Comparator.nullsLast(Comparator.naturalOrder());
        List<Truth.Observation> os = observations.stream()
                .sorted(Comparator.comparing(Truth.Observation::frame, framesFirst)).toList();
        List<Truth.Finding> fs = findings.stream()
                .sorted(Comparator.comparing(Truth.Finding::frame, framesFirst)).toList();
        return new Truth(scenario, description, seed, capture, format, frames, cs, ms, os, fs);
    }
}

package io.rdmascope.samples;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Collects a scenario's truth while it plays; {@link #freeze} turns it into a {@link Truth}. */
final class TruthLog {
    private final List<ConnectionRecord> connections = new ArrayList<>();
    private final List<MessageRecord> messages = new ArrayList<>();
    private final List<ObservationRecord> observations = new ArrayList<>();

    /** A connection's truth, filled in as it is set up and used; {@code id} is creation order. */
    static final class ConnectionRecord {
        final int id;
        final String transport;
        final String encapsulation;
        Truth.Endpoint requester;
        Truth.Endpoint responder;
        Integer pmtu;
        String setup = "none";
        final List<Truth.Transition> lifecycle = new ArrayList<>();

        ConnectionRecord(int id, String transport, String encapsulation) {
            this.id = id;
            this.transport = transport;
            this.encapsulation = encapsulation;
        }
    }

    /** A message's truth; frames are added as packets carrying it are captured. */
    static final class MessageRecord {
        final int connection;
        final String kind;
        final int firstPsn;
        /** SEND/WRITE: the newest PSN transmitted so far (a message cut short ends where it stopped). */
        int lastPsn;
        long bytes;
        final List<Integer> frames = new ArrayList<>();
        final List<Integer> responseFrames = new ArrayList<>();
        Integer completionFrame;
        String status = "incomplete";
        Long latencyNanos;
        Long immediate;
        Long invalidatedRkey;
        /** A packet of it crossed the wire but the capture never showed it (messages --json "partial"). */
        Boolean partial;
        /** Sent by the conversation's responder QP ({@link Connection#reverse()}): source and destination swap. */
        boolean fromResponder;

        MessageRecord(int connection, String kind, int firstPsn, int lastPsn, long bytes) {
            this.connection = connection;
            this.kind = kind;
            this.firstPsn = firstPsn;
            this.lastPsn = lastPsn;
            this.bytes = bytes;
        }
    }

    /** A storage-protocol operation's truth (Truth.Operation), completed as its response or the end comes. */
    static final class OperationRecord {
        final String protocol;
        final int connection;
        final String opcode;
        final long id;
        final int commandFrame;
        final List<Integer> dataFrames = new ArrayList<>();
        String status;
        String reason;
        Integer responseFrame;

        OperationRecord(String protocol, int connection, String opcode, long id, int commandFrame) {
            this.protocol = protocol;
            this.connection = connection;
            this.opcode = opcode;
            this.id = id;
            this.commandFrame = commandFrame;
        }

        /** Frames that moved this operation's data (RDMA READ request and responses, WRITE packets). */
        OperationRecord data(List<Integer> frames) {
            dataFrames.addAll(frames);
            return this;
        }

        /** Answered with success at {@code frame}. */
        void completed(int frame) {
            end("completed", null, frame);
        }

        /** Answered at {@code frame} with an error status, {@code reason} as the specification names it. */
        void failed(int frame, String reason) {
            end("failed", reason, frame);
        }

        /** Never answered: {@code reason} is teardown (its connection went first) or capture_end. */
        void unanswered(String reason) {
            end("unanswered", reason, null);
        }

        private void end(String how, String why, Integer frame) {
            if (status != null) {
                throw new IllegalStateException(opcode + " at frame " + commandFrame + " already " + status);
            }
            status = how;
            reason = why;
            responseFrame = frame;
        }
    }

    private record PlantedRecord(UlpError kind, String protocol, int connection, Long id, int frame, String detail) {
    }

    private final List<OperationRecord> operations = new ArrayList<>();
    private final List<PlantedRecord> planted = new ArrayList<>();

    OperationRecord operation(String protocol, int connection, String opcode, long id, int commandFrame) {
        OperationRecord o = new OperationRecord(protocol, connection, opcode, id, commandFrame);
        operations.add(o);
        return o;
    }

    void planted(UlpError kind, String protocol, int connection, Long id, int frame, String detail) {
        planted.add(new PlantedRecord(kind, protocol, connection, id, frame, detail));
    }

    private record ObservationRecord(Expected kind, Integer frame, Integer connection, Integer psn, String detail) {
    }

    ConnectionRecord connection(String transport, String encapsulation) {
        ConnectionRecord c = new ConnectionRecord(connections.size() + 1, transport, encapsulation);
        connections.add(c);
        return c;
    }

    MessageRecord message(int connection, String kind, int firstPsn, int lastPsn, long bytes) {
        MessageRecord m = new MessageRecord(connection, kind, firstPsn, lastPsn, bytes);
        messages.add(m);
        return m;
    }

    /** Records an observation; its finding, when its kind raises a rule, is derived at {@link #freeze}. */
    void observe(Expected kind, Integer frame, Integer connection, Integer psn, String detail) {
        observations.add(new ObservationRecord(kind, frame, connection, psn, detail));
    }

    Truth freeze(String scenario, String description, long seed, String capture, String format, int frames) {
        Map<Integer, String> ids = conversationIds();
        Map<Integer, ConnectionRecord> byId = new HashMap<>();
        connections.forEach(c -> byId.put(c.id, c));
        List<Truth.Conversation> cs = connections.stream()
                .sorted(Comparator.comparing(c -> Integer.parseInt(ids.get(c.id))))
                .map(c -> new Truth.Conversation(ids.get(c.id), c.transport, c.encapsulation, c.requester,
                        c.responder, c.pmtu, c.setup, List.copyOf(c.lifecycle))).toList();
        Comparator<Integer> nullsLast = Comparator.nullsLast(Comparator.naturalOrder());
        List<Truth.Message> ms = messages.stream()
                .sorted(Comparator.comparing((MessageRecord m) -> m.frames.isEmpty() ? null : m.frames.get(0), nullsLast))
                .map(m -> {
                    ConnectionRecord c = byId.get(m.connection);
                    // UC has no responses: without CM the requester's own QPN never appears on the wire.
                    Truth.Endpoint from = m.fromResponder ? c.responder : c.requester;
                    Truth.Endpoint to = m.fromResponder ? c.requester : c.responder;
                    Integer srcQp = "UC".equals(c.transport) && "none".equals(c.setup) ? null : from.qpn();
                    return new Truth.Message(ids.get(m.connection), from.address(), to.address(),
                            srcQp, to.qpn(), m.kind, c.transport, m.firstPsn, m.lastPsn, m.bytes,
                            List.copyOf(m.frames), List.copyOf(m.responseFrames), m.completionFrame, m.latencyNanos,
                            m.status, m.immediate, m.invalidatedRkey, m.partial);
                }).toList();
        // A planted storage-protocol error is also something the observer must notice, and its finding.
        List<ObservationRecord> all = new ArrayList<>(observations);
        for (PlantedRecord e : planted) {
            all.add(new ObservationRecord(e.kind.observed(e.protocol, unansweredReason(e)), e.frame, e.connection,
                    null, e.detail));
        }
        List<ObservationRecord> sorted = all.stream()
                .sorted(Comparator.comparing(ObservationRecord::frame, nullsLast)).toList();
        List<Truth.Observation> os = sorted.stream().map(o -> new Truth.Observation(o.kind.id(), o.frame,
                o.connection == null ? null : ids.get(o.connection), o.psn, o.detail)).toList();
        List<Truth.Finding> fs = sorted.stream().filter(o -> o.kind.rule() != null)
                .map(o -> new Truth.Finding(o.kind.rule(), o.kind.severity().id(), o.frame,
                        o.connection == null ? null : ids.get(o.connection))).toList();
        if (operations.isEmpty() && planted.isEmpty()) {
            return new Truth(scenario, description, seed, capture, format, frames, cs, ms, os, fs);
        }
        List<Truth.Operation> ops = operations.stream()
                .sorted(Comparator.comparingInt((OperationRecord o) -> o.commandFrame))
                .map(o -> {
                    if (o.status == null) {
                        throw new IllegalStateException(o.protocol + " " + o.opcode + " at frame " + o.commandFrame
                                + ": the scenario never said how it ended");
                    }
                    return new Truth.Operation(o.protocol, ids.get(o.connection), o.opcode, o.id, o.status, o.reason,
                            o.commandFrame, o.responseFrame, List.copyOf(o.dataFrames));
                }).toList();
        List<Truth.PlantedError> errors = planted.stream().sorted(Comparator.comparingInt(PlantedRecord::frame))
                .map(e -> new Truth.PlantedError(e.kind.id(), e.protocol, ids.get(e.connection), e.id, e.frame,
                        e.kind.spec(e.protocol), e.detail)).toList();
        return new Truth(scenario, description, seed, capture, format, frames, cs, ms, os, fs, ops, errors);
    }

    /** The reason the operation a planted error names ended unanswered with, or null when none did. */
    private String unansweredReason(PlantedRecord e) {
        for (OperationRecord o : operations) {
            if (o.connection == e.connection && e.id != null && o.id == e.id && "unanswered".equals(o.status)) {
                return o.reason;
            }
        }
        return null;
    }

    /** "1", "2", … in order of each connection's first frame (creation order breaks ties). */
    private Map<Integer, String> conversationIds() {
        Map<Integer, Integer> firstFrame = new HashMap<>();
        for (ConnectionRecord c : connections) {
            c.lifecycle.forEach(t -> firstFrame.merge(c.id, t.frame(), Math::min));
        }
        for (MessageRecord m : messages) {
            m.frames.forEach(f -> firstFrame.merge(m.connection, f, Math::min));
            m.responseFrames.forEach(f -> firstFrame.merge(m.connection, f, Math::min));
        }
        for (ObservationRecord o : observations) {
            if (o.frame != null && o.connection != null) {
                firstFrame.merge(o.connection, o.frame, Math::min);
            }
        }
        List<ConnectionRecord> order = new ArrayList<>(connections);
        order.sort(Comparator.comparing((ConnectionRecord c) -> firstFrame.getOrDefault(c.id, Integer.MAX_VALUE))
                .thenComparing(c -> c.id));
        Map<Integer, String> ids = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            ids.put(order.get(i).id, String.valueOf(i + 1));
        }
        return ids;
    }
}

package io.rdmascope.samples;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What a generated capture contains, known because we wrote it: its connections, every message
 * with the frames that carried it, what an observer must notice, and which rule findings that
 * raises. Serialised as {@code truth.json} beside the capture (snake_case keys, nulls omitted).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Truth(String scenario, String description, long seed, String capture, String format, int frames,
                   List<Connection> connections, List<Message> messages, List<Observation> observations,
                   List<Finding> findings) {

    /** One queue pair conversation; for UD the "responder" is the destination QP. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Connection(int id, String service, String encapsulation, Endpoint requester, Endpoint responder,
                             Integer pmtu, String setup, List<Transition> lifecycle) {
    }

    /** One side of a connection: address (IP, GID or LID), QP number, first PSN it sends with. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Endpoint(String address, String mac, int qpn, Integer udpSourcePort, Integer startPsn) {
    }

    /** A QP state change seen on the wire (IBTA Vol. 1 10.3 and 12.9 state diagrams). */
    public record Transition(int frame, String state) {
    }

    /**
     * One message: {@code kind} (SEND, SEND_WITH_IMMEDIATE, SEND_WITH_INVALIDATE, WRITE,
     * WRITE_WITH_IMMEDIATE, READ, COMPARE_SWAP, FETCH_ADD, FLUSH, ATOMIC_WRITE), PSN range, bytes
     * (for READ the bytes requested), every request frame including retransmissions, response
     * frames (READ responses, atomic acknowledge), the frame that completed it and the status:
     * completed, failed, incomplete or dropped.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Message(int id, int connection, String kind, int firstPsn, int lastPsn, long bytes,
                          List<Integer> requestFrames, List<Integer> responseFrames, Integer completionFrame,
                          String status, Long latencyNanos, Long immediate, Long invalidatedRkey) {
    }

    /** Something an observer must notice, at a frame (null when nothing shows on the wire). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Observation(String kind, Integer frame, Integer connection, Integer psn, String detail) {
    }

    /** A rule finding the observation raises, with the rule's default severity. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Finding(String rule, String severity, Integer frame, Integer connection) {
    }
}

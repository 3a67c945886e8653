package io.rdmascope.samples;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What a generated capture contains, known because we wrote it: its conversations, every message
 * with the frames that carried it, what an observer must notice, and which rule findings that
 * raises. Serialised as {@code truth.json} beside the capture.
 *
 * <p>Each message object has exactly the shape of {@code rdmascope messages --json} (issue 4's
 * stable contract), so the replay engine's output can be compared with it field for field.
 * Conversation ids are "1", "2", … in order of each conversation's first frame, as {@code flows}
 * numbers them.
 */
public record Truth(String scenario, String description, long seed, String capture, String format, int frames,
                   List<Conversation> conversations, List<Message> messages, List<Observation> observations,
                   List<Finding> findings) {

    /** One queue pair conversation; for UD the "responder" is the destination QP. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Conversation(String id, String transport, String encapsulation, Endpoint requester,
                               Endpoint responder, Integer pmtu, String setup, List<Transition> lifecycle) {
    }

    /** One side of a conversation: address (IP, GID or LID), QP number, first PSN it sends with. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Endpoint(String address, String mac, int qpn, Integer udpSourcePort, Integer startPsn) {
    }

    /** A QP state change seen on the wire (IBTA Vol. 1 10.3 and 12.9 state diagrams). */
    public record Transition(int frame, String state) {
    }

    /**
     * One message, in the {@code messages --json} shape: {@code kind} is SEND, SEND_WITH_IMM,
     * SEND_WITH_INV, WRITE, WRITE_WITH_IMM, READ, COMPARE_SWAP, FETCH_ADD, FLUSH or ATOMIC_WRITE;
     * {@code bytes} is the payload carried (for READ, the bytes returned); {@code frames} every
     * request frame including retransmissions; {@code status} completed, incomplete, failed or
     * dropped. {@code srcQp} is null where the wire never shows it (UC without CM). Immediate data
     * and the invalidated R_Key are extensions, present only on the messages that carry them.
     */
    public record Message(String conversation, String src, String dst, Integer srcQp, int destQp, String kind,
                          String transport, int firstPsn, int lastPsn, long bytes, List<Integer> frames,
                          List<Integer> responseFrames, Integer completionFrame, Long latencyNanos, String status,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Long immediate,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Long invalidatedRkey,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Boolean partial) {
    }

    /** Something an observer must notice, at a frame (null when nothing shows on the wire). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Observation(String kind, Integer frame, String conversation, Integer psn, String detail) {
    }

    /** A rule finding the observation raises, with the rule's default severity. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Finding(String rule, String severity, Integer frame, String conversation) {
    }
}

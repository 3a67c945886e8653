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
                   List<Finding> findings,
                   @JsonInclude(JsonInclude.Include.NON_NULL) List<Operation> operations,
                   @JsonInclude(JsonInclude.Include.NON_NULL) List<PlantedError> plantedErrors) {

    /** The truth of a scenario that carries no storage protocol: no operations, nothing planted for them. */
    public Truth(String scenario, String description, long seed, String capture, String format, int frames,
                 List<Conversation> conversations, List<Message> messages, List<Observation> observations,
                 List<Finding> findings) {
        this(scenario, description, seed, capture, format, frames, conversations, messages, observations, findings,
                null, null);
    }

    /**
     * One storage-protocol operation the scenario performed (issue 19), in the shape of
     * {@code rdmascope ops --json}: {@code protocol} nvme-rdma, iser, rpcrdma or smb_direct; {@code queue}
     * the conversation carrying it (its id in {@link #conversations}); {@code opcode} the command's name
     * as its specification (and tshark) names it; {@code id} the CID, initiator task tag, XID or SMB2
     * message id; {@code status} completed, failed (with the {@code reason} the response gave) or
     * unanswered ({@code reason} teardown or capture_end); the frame of the command's first packet, of
     * the response's first packet (null when none), and every frame that moved its data by RDMA (READ
     * requests, READ responses, WRITE packets).
     */
    public record Operation(String protocol, String queue, String opcode, long id, String status, String reason,
                            int commandFrame, Integer responseFrame, List<Integer> dataFrames) {
    }

    /**
     * A protocol error the scenario put on the wire on purpose, and the condition of issue 19's rules
     * it must raise ({@code kind}: response_without_command, id_reused_while_outstanding,
     * transfer_outside_buffers, command_unanswered, credit_overrun), with the specification that
     * forbids it, at the frame that shows it.
     */
    public record PlantedError(String kind, String protocol, String queue, Long id, int frame, String spec,
                               String detail) {
    }

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

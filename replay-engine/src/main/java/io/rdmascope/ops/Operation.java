package io.rdmascope.ops;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.List;

/**
 * One command, call or task and what became of it: the {@code ops --json} contract (extend, don't
 * rename; docs/cli.md).
 *
 * @param protocol      tshark's filter name of the protocol: {@code nvme-rdma}, {@code iser},
 *                      {@code rpcordma}, {@code smb_direct}
 * @param queue         the queue or session: the protocol's own name for it (NVMe-oF "qid 0") and the RC
 *                      connection's two QPs, requester's (which sends commands) first ("QP 0x000011/0x000022");
 *                      over iWARP the TCP connection's two endpoints instead ("TCP 10.0.1.1:50123/10.0.1.2:5445")
 * @param requesterQp   the QP that sent the command (0 over iWARP, which has none)
 * @param responderQp   the QP that answers it (0 over iWARP)
 * @param opcode        the bare opcode or procedure name, as tshark's opcode field and SRT tables name it
 *                      ("Identify", "Property Get", "Read(10)", "GETATTR", "Read"); the summary's
 *                      service-response-time table groups by it
 * @param description   the operation as tshark's Info column names it, with what qualifies the opcode
 *                      ("Identify Controller", "Property Get Controller Capabilities", "V3 GETATTR")
 * @param id            CID, initiator task tag, XID or SMB2 message id, unsigned
 * @param idText        the id as tshark shows it (not in the JSON, which has the number)
 * @param size          bytes the command asks to move (0 for none)
 * @param status        {@link #COMPLETED}, {@link #FAILED} or {@link #UNANSWERED}
 * @param reason        null when completed; for a failure the status's name as the protocol's
 *                      specification names it ("LBA Out of Range", "Check Condition", "NFS3ERR_NOENT",
 *                      "STATUS_ACCESS_DENIED"); {@link #TEARDOWN}, {@link #AFTER_TEARDOWN},
 *                      {@link #OVERFLOW} or {@link #CAPTURE_END} for an unanswered command
 * @param statusCode    for a failure, the status field's value (NVMe SCT &lt;&lt; 8 | SC, SCSI status,
 *                      nfsstat, NTSTATUS...), else null
 * @param commandFrame  the frame that carried the command
 * @param responseFrame the frame that carried its response, or null
 * @param dataFrames    the RDMA READ Request, READ Response and WRITE frames that moved its data
 * @param teardownFrame the CM DisconnectRequest of its connection (over iWARP: the first TCP FIN or RST,
 *                      or RDMAP Terminate), when one was captured, else null
 * @param teardownAfterNs the teardown's time minus the command's (negative: the command came after it), or
 *                      null without one
 * @param latencyNs     command to response, or null when unanswered
 * @param deliveryNs    command to the responder's transport ACK covering it, or null when none captured
 * @param dataNs        first to last data frame, or null without data frames
 * @param completionNs  last data frame (or the command, without data) to the response, or null
 * @param teardownBy    what {@code teardownFrame} carries: {@link #BY_DREQ}, {@link #BY_FIN}, {@link #BY_RST}
 *                      or {@link #BY_TERMINATE}; null without a teardown
 */
public record Operation(String protocol, String queue, int requesterQp, int responderQp, String opcode,
                        String description, long id, @JsonIgnore String idText, long size, String status,
                        String reason, Long statusCode, long commandFrame,
                        Long responseFrame, List<Long> dataFrames, Long teardownFrame, Long teardownAfterNs, Long latencyNs,
                        Long deliveryNs, Long dataNs, Long completionNs, String teardownBy) {
    public static final String COMPLETED = "completed";
    public static final String FAILED = "failed";
    public static final String UNANSWERED = "unanswered";
    /** Unanswered: its connection's CM DisconnectRequest came after it. */
    public static final String TEARDOWN = "teardown";
    /** Unanswered: sent after its connection's CM DisconnectRequest. */
    public static final String AFTER_TEARDOWN = "after_teardown";
    /** Unanswered as far as the tracker knows: dropped when its queue held too many outstanding commands. */
    public static final String OVERFLOW = "overflow";
    /** Unanswered: the capture ended with it outstanding, no teardown seen. */
    public static final String CAPTURE_END = "capture_end";
    /** Teardown by a CM DisconnectRequest (IBTA 12.6.10). */
    public static final String BY_DREQ = "DREQ";
    /** Teardown of an iWARP connection by a TCP FIN (RFC 9293 §3.6). */
    public static final String BY_FIN = "FIN";
    /** Teardown of an iWARP connection by a TCP RST (RFC 9293 §3.5.2). */
    public static final String BY_RST = "RST";
    /** Teardown of an iWARP connection by an RDMAP Terminate (RFC 5040 §5.4: the stream ends in error). */
    public static final String BY_TERMINATE = "Terminate";

    public Operation {
        dataFrames = List.copyOf(dataFrames);
    }
}

package io.rdmascope.samples;

/**
 * The storage-protocol conditions issue 19's rules (its item 7) are to find, as a generated scenario
 * plants them: each with the id its truth file uses and, per protocol, the specification text that
 * makes it an error.
 */
public enum UlpError {
    /** A response (CQE, SCSI Response, RPC reply, SMB2 response) naming no outstanding command. */
    RESPONSE_WITHOUT_COMMAND("response_without_command",
            "NVMe 1.4 §4.6: a completion's CID is that of a command submitted on its queue",
            "RFC 7143 §11.2.1.8: a response carries the Initiator Task Tag of the task it ends",
            "RFC 5531 §9: a reply's XID is that of the call it answers",
            "MS-SMB2 §3.2.5.1.2: a response's MessageId is that of an outstanding request"),
    /** A command reusing the id (CID, task tag, XID, message id) of one still outstanding. */
    ID_REUSED_WHILE_OUTSTANDING("id_reused_while_outstanding",
            "NVMe 1.4 §4.2: the CID is unique among the commands outstanding on a submission queue",
            "RFC 7143 §11.2.1.8: an Initiator Task Tag is unique among the session's outstanding tasks",
            "RFC 5531 §9: a client gives every outstanding call its own XID",
            "MS-SMB2 §3.3.5.2.3: a MessageId is used once per connection"),
    /** An RDMA READ or WRITE outside the buffers every outstanding command advertised. */
    TRANSFER_OUTSIDE_BUFFERS("transfer_outside_buffers",
            "NVMe-oF 1.1 §7.3.2: the controller moves data only within the host memory a command's keyed SGL describes",
            "RFC 7145 §7.3.5: the target moves data only within the STag and range the command advertised",
            "RFC 8166 §3.4.5: the responder moves data only within the chunks the requester provided",
            "MS-SMB2 §2.2.19/§2.2.21: the server moves data only within the buffer descriptors of the request"),
    /** A command never answered: before its connection was torn down, or before the capture ended. */
    COMMAND_UNANSWERED("command_unanswered",
            "NVMe 1.4 §4.6: every command submitted is completed by a completion queue entry",
            "RFC 7143 §11.4: every SCSI Command is ended by a SCSI Response",
            "RFC 5531 §9: a call is answered by a reply with its XID",
            "MS-SMB2 §3.3.4.1: every request is answered by a response"),
    /** A message sent beyond the credits its peer granted. */
    CREDIT_OVERRUN("credit_overrun",
            null,
            null,
            "RFC 8166 §3.3.1: a requester has no more calls outstanding than the credits the responder granted",
            "MS-SMBD §3.1.5.1: a peer sends a message only while it holds a send credit its peer granted");

    private final String id;
    private final String nvme;
    private final String iser;
    private final String rpc;
    private final String smb;

    UlpError(String id, String nvme, String iser, String rpc, String smb) {
        this.id = id;
        this.nvme = nvme;
        this.iser = iser;
        this.rpc = rpc;
        this.smb = smb;
    }

    /** The id the truth file writes. */
    public String id() {
        return id;
    }

    /**
     * What an observer notices of it in {@code protocol}: a command never answered is noticed at its
     * connection's teardown, or as a note at the capture's end ({@code unansweredReason}, the operation's
     * reason); a credit overrun under the protocol's credit scheme (MS-SMBD send credits, RFC 8166 call
     * credits).
     */
    Expected observed(String protocol, String unansweredReason) {
        return switch (this) {
            case RESPONSE_WITHOUT_COMMAND -> Expected.ULP_RESPONSE_WITHOUT_COMMAND;
            case ID_REUSED_WHILE_OUTSTANDING -> Expected.ULP_ID_REUSED;
            case TRANSFER_OUTSIDE_BUFFERS -> Expected.ULP_TRANSFER_OUTSIDE_BUFFERS;
            case COMMAND_UNANSWERED -> "teardown".equals(unansweredReason) ? Expected.ULP_UNANSWERED_AT_TEARDOWN
                    : Expected.ULP_UNANSWERED_AT_CAPTURE_END;
            case CREDIT_OVERRUN -> Ulp.SMB_DIRECT.equals(protocol) ? Expected.ULP_SEND_CREDIT_OVERRUN
                    : Expected.ULP_CALL_CREDIT_OVERRUN;
        };
    }

    /** The specification text that makes it an error in {@code protocol} (an {@link Ulp} name). */
    String spec(String protocol) {
        String text = switch (protocol) {
            case Ulp.NVME -> nvme;
            case Ulp.ISER -> iser;
            case Ulp.RPCRDMA -> rpc;
            case Ulp.SMB_DIRECT -> smb;
            default -> null;
        };
        if (text == null) {
            throw new IllegalArgumentException(id + " is not an error of " + protocol);
        }
        return text;
    }
}

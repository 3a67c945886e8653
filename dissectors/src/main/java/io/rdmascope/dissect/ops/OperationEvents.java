package io.rdmascope.dissect.ops;

import java.util.List;

/** Where an {@link OperationExtractor} reports what a frame carries; the frame itself is the one being extracted. */
public interface OperationEvents {
    /** A command, call or task the frame starts. */
    void command(Command command);

    /** A response, reply or status the frame carries. */
    void response(Response response);

    /**
     * Send credits (MS-SMBD §3.1.5.1): the frame is one message of a protocol in which every message
     * its sender sends spends one credit its peer granted, and which grants the peer {@link SendCredits#granted}
     * more. Only protocols with such credits report it; the default ignores it.
     */
    default void sendCredits(SendCredits credits) {
    }

    /**
     * Call credits (RFC 8166 §3.3.1): the responder's current grant, the most requests the requester may
     * have outstanding on the queue from now on. Only protocols with such credits report it; the default
     * ignores it.
     */
    default void requestCredits(RequestCredits credits) {
    }

    /**
     * The queue or session a command and its response travel on: the protocol (tshark's filter name),
     * what the protocol calls the queue ("qid 0"; may be empty), and the two queue pairs of the RC
     * connection (the CM requester's, which sends commands, and the responder's). Two events with equal
     * queues pair by id.
     *
     * @param transport the connection the queue travels on when queue pairs do not name it, else null:
     *                  over iWARP, the TCP connection's {@code io.rdmascope.proto.iwarp.IwarpConnection}
     *                  (compared by identity: a new connection on the same ports is another queue), the
     *                  two QPNs then 0 (iWARP carries none, RFC 5040 §5.1)
     */
    record Queue(String protocol, String name, int requesterQpn, int responderQpn, Object transport) {
        /** A queue on an RC connection, named by its two QPs. */
        public Queue(String protocol, String name, int requesterQpn, int responderQpn) {
            this(protocol, name, requesterQpn, responderQpn, null);
        }

        /** A queue on a TCP connection carrying iWARP (no QPs on the wire). */
        public static Queue onConnection(String protocol, String name, Object connection) {
            return new Queue(protocol, name, 0, 0, java.util.Objects.requireNonNull(connection));
        }

        /** The record's text, the transport only when there is one (so a queue of QPs reads as it always did). */
        @Override
        public String toString() {
            return "Queue[protocol=" + protocol + ", name=" + name + ", requesterQpn=" + requesterQpn
                    + ", responderQpn=" + responderQpn + (transport == null ? "" : ", transport=" + transport) + "]";
        }
    }

    /**
     * A memory region the command offers its peer (NVMe keyed SGL, iSER STag and base offset, RPC chunk
     * segment): RDMA READs and WRITEs with this R_Key/STag inside {@code [address, address + length)}
     * move the command's data.
     */
    record Buffer(long key, long address, long length) {
    }

    /**
     * @param id      the protocol's identifier that its response repeats (CID, initiator task tag, XID,
     *                SMB2 message id), unsigned
     * @param idText  the id as the protocol's tshark fields show it ("0x000a")
     * @param opcode      the operation's bare name as tshark names the opcode or procedure field
     *                    ({@code nvme.cmd.opc}/{@code nvme.fabrics.cmd.fctype}: "Identify", "Property Get";
     *                    {@code scsi.sbc.opcode}: "Read(10)"; {@code nfs.procedure_v3}: "GETATTR";
     *                    {@code smb2.cmd}: "Read"), the key of the service-response-time table
     * @param description the operation as tshark's Info column names it, with what qualifies the opcode
     *                    ("Identify Controller", "Property Get Controller Capabilities", "V3 GETATTR");
     *                    equal to {@code opcode} when nothing qualifies it
     * @param size        bytes the command asks to move (0 when none)
     * @param buffers     the regions its data moves through, empty when none are named
     * @param awaitsEvent whether its responder answers it only when some event happens (see
     *                    {@link #awaitingEvent()}), so that no answer is no fault
     */
    record Command(Queue queue, long id, String idText, String opcode, String description, long size,
                   List<Buffer> buffers, boolean awaitsEvent) {
        /**
         * A command answered when its work is done (every command but those that wait for an event).
         */
        public Command(Queue queue, long id, String idText, String opcode, String description, long size,
                       List<Buffer> buffers) {
            this(queue, id, idText, opcode, description, size, buffers, false);
        }

        /** A command that nothing qualifies beyond its opcode. */
        public Command(Queue queue, long id, String idText, String opcode, long size, List<Buffer> buffers) {
            this(queue, id, idText, opcode, opcode, size, buffers, false);
        }

        /**
         * The same command, marked as one its responder answers only when an event happens (NVMe's
         * Asynchronous Event Request, NVMe Base 2.0 §5.2; SMB2 CHANGE_NOTIFY, MS-SMB2 §3.3.5.19): its
         * being outstanding at teardown or at the capture's end is normal, not a command left unanswered.
         */
        public Command awaitingEvent() {
            return new Command(queue, id, idText, opcode, description, size, buffers, true);
        }
    }

    /**
     * One message under send credits (MS-SMBD §3.1.5.1).
     *
     * @param byRequester whether the queue's requester (the CM active side) sent it
     * @param spends      whether sending it needs a credit (a Data Transfer message); false for one sent
     *                    outside the credit scheme (a Negotiate Response, §3.1.5.3)
     * @param granted     the credits it grants its receiver (CreditsGranted)
     */
    record SendCredits(Queue queue, boolean byRequester, boolean spends, int granted) {
    }

    /**
     * A responder's credit grant (RFC 8166 §3.3.1, rdma_credit in a reply).
     *
     * @param credits the most requests the requester may have outstanding from now on
     */
    record RequestCredits(Queue queue, long credits) {
    }

    /**
     * @param failure    null when the response reports success, else the status's name as the protocol's
     *                   specification names it ("LBA Out of Range", "Check Condition", "NFS3ERR_NOENT",
     *                   "STATUS_ACCESS_DENIED"), or the code in hex when it has no name we know
     * @param statusCode the status field's value when it failed (NVMe: status code type and code as
     *                   SCT &lt;&lt; 8 | SC; iSCSI: the SCSI status, or the response, login status or TMF
     *                   response; RPC: accept_stat, nfsstat3/nfsstat4 or the RDMA_ERROR code; SMB2: the
     *                   NTSTATUS), else null
     */
    record Response(Queue queue, long id, String failure, Long statusCode) {
        /** A success (null failure), or a failure without a numeric code. */
        public Response(Queue queue, long id, String failure) {
            this(queue, id, failure, null);
        }
    }
}

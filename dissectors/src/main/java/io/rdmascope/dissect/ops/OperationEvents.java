package io.rdmascope.dissect.ops;

import java.util.List;

/** Where an {@link OperationExtractor} reports what a frame carries; the frame itself is the one being extracted. */
public interface OperationEvents {
    /** A command, call or task the frame starts. */
    void command(Command command);

    /** A response, reply or status the frame carries. */
    void response(Response response);

    /**
     * The queue or session a command and its response travel on: the protocol (tshark's filter name),
     * what the protocol calls the queue ("qid 0"; may be empty), and the two queue pairs of the RC
     * connection (the CM requester's, which sends commands, and the responder's). Two events with equal
     * queues pair by id.
     */
    record Queue(String protocol, String name, int requesterQpn, int responderQpn) {
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
     * @param opcode  the operation's name in tshark's words ("Identify Controller", "Read(10)")
     * @param size    bytes the command asks to move (0 when none)
     * @param buffers the regions its data moves through, empty when none are named
     */
    record Command(Queue queue, long id, String idText, String opcode, long size, List<Buffer> buffers) {
    }

    /**
     * @param failure null when the response reports success, else why not in the protocol's words
     *                ("Invalid Field in Command", "Check Condition", "STATUS_ACCESS_DENIED")
     */
    record Response(Queue queue, long id, String failure) {
    }
}

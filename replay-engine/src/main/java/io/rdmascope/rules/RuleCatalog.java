package io.rdmascope.rules;

import io.rdmascope.replay.ObservationKind;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every conformance rule, as data. Ids are stable (the scenario truth files and users' rules files
 * name them); a rule's revision goes up when what it means changes. References cite the IBTA
 * compliance statement where the public sources quote one (see ../shared/reference/rc-transport-rules.md,
 * cited as R-numbers), else the chapter and annex; iWARP rules (IW-) cite the RFC sections; the storage
 * protocols' rules (ULP-, issue 19: NVMe-oF, iSER, RPC-over-RDMA, SMB Direct) cite each protocol's own.
 */
public final class RuleCatalog {
    private static final String RC = "IBTA Vol. 1 ch. 9 (RC transport)";
    /** Where each storage protocol says a command id names one outstanding command (issue 19). */
    private static final String ULP_IDS = "NVMe Base 1.4 §4.2, §4.6 (CID); RFC 7143 §11.2.1.8 (initiator task tag); "
            + "RFC 5531 §9 (XID); MS-SMB2 §3.2.5.1.2, §3.3.5.2.3 (MessageId)";
    /** Where each storage protocol says every command is answered (issue 19). */
    private static final String ULP_ANSWERS = "NVMe Base 1.4 §4.6; RFC 7143 §11.4; RFC 5531 §9; MS-SMB2 §3.3.4.1";

    private static final List<Rule> RULES = List.of(
            rule("IB-ICRC-001", Severity.ERROR, "Invariant CRC does not verify",
                    "IBTA Vol. 1 7.8.1; Annex A16/A17 (RoCE ICRC)",
                    "The ICRC covers every field no switch or router may change. A bad ICRC means the packet was "
                            + "damaged in flight or built wrongly; the receiver drops it silently, so it shows up as "
                            + "a NAK and a retransmission. Typical cause: a faulty link or cable, a NIC or firmware "
                            + "bug in the CRC or in a field it covers, or a middlebox rewriting a covered field."),
            rule("IB-VCRC-001", Severity.ERROR, "Variant CRC does not verify", "IBTA Vol. 1 7.8.2",
                    "The VCRC protects a native InfiniBand packet on one link. A bad VCRC means bit errors on the "
                            + "last link before the capture point. Typical cause: a bad cable, connector or port."),
            rule("IB-HDR-001", Severity.ERROR, "Malformed header", "IBTA Vol. 1 ch. 5-9 (packet formats)",
                    "A header is shorter than its type requires, or a length field contradicts the packet (a pad "
                            + "count larger than the payload, a UDP length shorter than its header). Typical cause: "
                            + "a sender building packets wrongly, or a capture tool mangling them."),
            rule("IB-CAP-001", Severity.WARNING, "Frame cut short by the capture",
                    "pcap/pcapng snap length (not a protocol fault)",
                    "The capture kept fewer bytes than the frame had, so its ICRC cannot be verified and its "
                            + "payload cannot be inspected. Typical cause: a snap length below the path MTU plus "
                            + "headers; capture with -s 0 or a larger -s."),
            rule("IB-CAP-002", Severity.NOTE, "Packet missing from the capture but acknowledged",
                    RC + ", PSN rules (R2.1) and observer limits (rules §8)",
                    "A request PSN never appears in the capture, yet the responder acknowledged it and nobody "
                            + "resent it: it crossed the wire but the capture point missed it. Typical cause: a "
                            + "mirror port or capture buffer overrun. Not a fabric fault, but the capture is lossy. "
                            + "Reported once per conversation, with the frames where the misses show (the first "
                            + "100) and how many: how much of that conversation's analysis rests on missing frames."),
            rule("IB-CAP-003", Severity.NOTE, "Message unanswered when the capture ended",
                    RC + ", local ACK timeout (C9-140)",
                    "A request was sent less than one ACK timeout before the capture stopped and has no answer in "
                            + "it; the answer may simply have come later. Capture a little longer to know."),
            rule("IB-CAP-004", Severity.NOTE, "Responses stamped before their requests",
                    "capture time stamps (not a protocol fault)",
                    "Responses reached the capture before the requests they answer. A host capturing its own "
                            + "traffic stamps its transmissions when its capture path sees them, which can be after "
                            + "the peer's reply arrived. The replay puts them back in causal order; the note gives the "
                            + "largest skew and the host whose clock stamps lag. Latencies of that host's requests read "
                            + "short (even negative) by up to that much."),
            rule("IB-CAP-005", Severity.NOTE, "Direction not paired with its reverse",
                    "IBTA Vol. 1 9.2 (BTH names only the destination QP)",
                    "Traffic to a QP could not be tied to its reverse direction: a BTH carries only the destination "
                            + "QP, and no response in the capture fell inside the requests of exactly one candidate "
                            + "QP between the same two hosts. Its requester's QP number stays unknown. Capture the CM "
                            + "exchange (connection setup) or longer to tell them apart."),
            rule("IB-RC-PSN-001", Severity.WARNING, "Packet lost on the wire", RC + ", PSN checks (R2.1, R3.3)",
                    "A request PSN went missing and was then NAK'd or resent: the packet was lost between the "
                            + "requester and the responder. The frame is where the loss shows: the first packet "
                            + "after the gap, or the lost packet itself when the loss happened after the capture "
                            + "point. Typical cause: congestion drops on a lossy (non-PFC) fabric, link errors, or "
                            + "buffer exhaustion in a switch or NIC."),
            rule("IB-RC-PSN-002", Severity.WARNING, "Duplicate packet", RC + ", duplicate requests (C9-105)",
                    "An isolated byte-identical copy of a request arrived microseconds after the original with no "
                            + "NAK or timeout to explain it: not a retransmission. Typical cause: a switch or mirror "
                            + "duplicating frames, or a capture taken at two points at once."),
            rule("IB-RC-PSN-003", Severity.WARNING, "Retransmission", RC + ", go-back-N (R3.3, R3.4, R3.6)",
                    "The requester sent a PSN again after a NAK, an RNR NAK or its ACK timer. Every retransmission "
                            + "costs at least a round trip and a window of goodput. Typical cause: loss (see "
                            + "IB-RC-PSN-001), a slow responder, or an ACK timeout set too short."),
            rule("IB-RC-TIMEOUT-001", Severity.WARNING, "Local ACK timeout", RC + ", C9-140 (T_tr = 4.096 µs · 2^timeout)",
                    "A retransmission run started with no NAK to trigger it: the requester's ACK timer expired. "
                            + "Timeouts stall a QP for the whole timeout. Typical cause: a lost tail packet or a "
                            + "lost ACK, or a responder too slow to answer within the timeout."),
            rule("IB-RC-TIMEOUT-002", Severity.ERROR, "Transport retries exhausted", RC + ", R3.6 (RETRY_EXC_ERR)",
                    "The same PSN was sent retry_cnt + 1 times without progress and the requester gave up: its "
                            + "work request failed with RETRY_EXC_ERR and the QP went to the error state. Typical "
                            + "cause: the responder is gone or unreachable (link down, wrong path, host crashed)."),
            rule("IB-RC-NAK-001", Severity.WARNING, "NAK: PSN sequence error", RC + ", R2.1 (one NAK per gap)",
                    "The responder received a PSN ahead of the one it expected and asked the requester to go back. "
                            + "Typical cause: a packet lost or corrupted on the way to the responder."),
            rule("IB-RC-NAK-002", Severity.ERROR, "NAK: invalid request", RC + ", R2.2-R2.4 (REM_INV_REQ_ERR)",
                    "The responder rejected a request as invalid: an opcode out of sequence, an operation the QP "
                            + "does not allow (e.g. READ without remote read access), or a length error. Both QPs "
                            + "enter the error state. Typical cause: an application or NIC bug, or QP access flags "
                            + "that do not match what the peer does."),
            rule("IB-RC-NAK-003", Severity.ERROR, "NAK: remote access error", RC + ", R2.4 (REM_ACCESS_ERR)",
                    "The responder refused a memory access: unknown or invalidated R_Key, address out of the "
                            + "region's bounds, or missing rights. Both QPs enter the error state. Typical cause: "
                            + "a stale or wrong R_Key, a deregistered memory region, or an address computed wrongly."),
            rule("IB-RC-NAK-004", Severity.ERROR, "NAK: remote operational error", RC + ", R2.4 (REM_OP_ERR)",
                    "The responder could not complete a request for a reason on its side (a malformed receive "
                            + "WQE, an internal failure). Both QPs enter the error state."),
            rule("IB-RC-NAK-005", Severity.ERROR, "NAK: invalid RD request", RC + ", AETH NAK code 4",
                    "A reliable-datagram responder rejected a request. Both QPs enter the error state."),
            rule("IB-RC-RNR-001", Severity.WARNING, "Receiver not ready (RNR NAK)", RC + ", R2.4, R3.4",
                    "A SEND (or WRITE with immediate) arrived when the responder had no receive buffer posted; the "
                            + "requester waits the RNR timer and tries again. Typical cause: the receiving "
                            + "application posts receives too slowly or too few."),
            rule("IB-RC-RNR-002", Severity.ERROR, "RNR retries exhausted", RC + ", R3.4 (RNR_RETRY_EXC_ERR)",
                    "The responder kept answering RNR NAK until the requester's rnr_retry count ran out: the work "
                            + "request failed and the QP went to the error state. Typical cause: a receiver that "
                            + "stopped posting receive buffers."),
            rule("IB-RC-OPSEQ-001", Severity.ERROR, "MIDDLE or LAST packet with no FIRST", RC + ", R2.2",
                    "A SEND or WRITE MIDDLE/LAST arrived in sequence with no message open: the responder NAKs it "
                            + "as an invalid request. Typical cause: a requester bug in message segmentation."),
            rule("IB-RC-OPSEQ-002", Severity.ERROR, "New message while another is unfinished", RC + ", R2.2",
                    "A FIRST, ONLY, READ or atomic arrived while a SEND or WRITE still lacked its LAST packet. The "
                            + "unfinished message can never complete. Typical cause: a requester bug."),
            rule("IB-LEN-001", Severity.ERROR, "Payload larger than the path MTU", RC + ", C9-92, C9-94 (R2.3)",
                    "A packet carries more payload than the connection's path MTU (from CM, or learned from "
                            + "full-sized packets). Typical cause: mismatched MTU settings between the two QPs."),
            rule("IB-LEN-002", Severity.ERROR, "FIRST or MIDDLE packet shorter than the path MTU", RC + ", R2.3",
                    "Every packet of a multi-packet message but the last must carry exactly the path MTU. Typical "
                            + "cause: a requester segmenting with the wrong MTU."),
            rule("IB-LEN-003", Severity.ERROR, "WRITE length differs from its RETH DMA length", RC + ", R2.3",
                    "The bytes a WRITE carried do not add up to the DMA length its RETH announced. Typical cause: a "
                            + "requester bug, or packets of the message missing."),
            rule("IB-LEN-004", Severity.ERROR, "Wrong pad count", "IBTA Vol. 1 9.2 (BTH PadCnt); R2.3",
                    "BTH PadCnt must make payload plus pad a multiple of four bytes, and only the last packet of a "
                            + "message may be padded. Typical cause: a requester or NIC bug in padding."),
            rule("IB-RC-MATCH-001", Severity.ERROR, "READ response that answers no READ", RC + ", R3.1, R3.8",
                    "A READ response's PSN lies outside every outstanding READ. The requester must treat it as an "
                            + "error. Typical cause: a responder bug, or a capture that misses the READ request."),
            rule("IB-RC-MATCH-002", Severity.ERROR, "ACK of a PSN never sent", RC + ", R3.1",
                    "An acknowledgement names a PSN outside what the requester has sent: beyond its newest PSN, or "
                            + "before the starting PSN CM announced (e.g. 0xFFFFFF on a connection starting at 0). "
                            + "Typical cause: a responder bug, PSNs that disagree between the two ends (a wrong CM "
                            + "starting PSN), or a responder answering a request that reused a PSN (IB-RC-PSN-004)."),
            rule("IB-RC-PSN-004", Severity.ERROR, "Request reuses a PSN", RC + ", 9.7.4.1.1, C9-105 (duplicates)",
                    "A request arrived at a PSN an earlier, different request already used (inside a READ's "
                            + "response range, or with another opcode, length or RETH than what was sent there). A "
                            + "requester sends a used PSN again only to resend the same request; the responder "
                            + "takes this one for a duplicate and never executes it. Typical cause: a requester "
                            + "that advanced its PSN by the wrong amount, e.g. by one for a READ that takes one PSN "
                            + "per response packet (R1.3)."),
            rule("IB-RC-MSN-001", Severity.ERROR, "MSN inconsistent", RC + ", C9-148 (AETH MSN)",
                    "The MSN in an acknowledgement counts the messages the responder has completed, so it never "
                            + "goes backwards as PSNs go forward and grows by at most one per PSN. This one went "
                            + "backwards, or grew by more than the PSNs since the previous answer. Typical cause: a "
                            + "responder bug in MSN accounting (duplicates counted twice, a counter reset)."),
            rule("IB-RC-STALL-001", Severity.ERROR, "Queue pair stalled", RC + ", C9-140, R3.6 (retry budget)",
                    "Requests were outstanding and nothing moved (no ACK advancing, no transmission) for longer "
                            + "than the requester's retry budget, T_tr x (retry_cnt + 1), from CM or else 67 ms x 8: "
                            + "by then a working requester resends or gives up. The frame is the last one that made "
                            + "progress. Typical cause: a requester or responder whose state machine wedged, often "
                            + "after an earlier error on the connection."),
            rule("IB-RC-TEARDOWN-001", Severity.ERROR, "Connection ended with work outstanding",
                    "IBTA Vol. 1 10.3.1 (error state flushes work requests), 12.6 (CM DREQ/REJ)",
                    "The connection was torn down (CM DisconnectRequest or Reject, a fatal NAK, retries "
                            + "exhausted) while messages were still unanswered: they fail. Typical cause: an "
                            + "application giving up on a connection that stopped answering, or an earlier fatal error."),
            rule("IB-RC-MATCH-003", Severity.ERROR, "Atomic acknowledge that answers no atomic", RC + ", R3.8",
                    "An ATOMIC ACKNOWLEDGE's PSN matches no outstanding compare-and-swap or fetch-and-add."),
            rule("IB-RC-MSG-001", Severity.WARNING, "Message never completed", RC + ", R3.2",
                    "A message (often a READ) had no acknowledgement or response for longer than the requester's "
                            + "ACK timeout before the capture ended. Typical cause: a hung responder, a lost "
                            + "response with no retry, or a QP that died silently."),
            rule("IB-UC-001", Severity.WARNING, "UC message dropped for a missing packet", "IBTA Vol. 1 9.8.3",
                    "UC has no retransmission: when a packet of a message is lost, the receiver silently discards "
                            + "the whole message. Typical cause: loss on the wire."),
            rule("IB-CC-001", Severity.NOTE, "ECN Congestion Experienced mark", "RFC 3168; IBTA Annex A17.9 (RoCEv2 CC)",
                    "A switch marked a data packet CE: a queue on its path was filling. The receiving NIC answers "
                            + "with CNPs and the sender slows down (DCQCN). Expected on a busy fabric; many marks "
                            + "mean a congestion hot spot."),
            rule("IB-CC-002", Severity.NOTE, "Congestion notification packet", "IBTA Annex A17.9.3",
                    "A NIC told a sender's QP that its packets arrived CE-marked; the sender cuts its rate. Normal "
                            + "under load; frequent CNPs mean sustained congestion."),
            rule("IB-CM-001", Severity.NOTE, "Connection request rejected", "IBTA Vol. 1 12.6.7 (REJ)",
                    "The passive side rejected a CM REQ; the reason code says why (e.g. Consumer Reject: nobody "
                            + "listening on the service)."),
            // ---- iWARP (issue 8): TCP (RFC 9293), MPA (RFC 5044), DDP (RFC 5041), RDMAP (RFC 5040) ----
            rule("IW-TCP-001", Severity.WARNING, "TCP retransmission on an iWARP connection",
                    "RFC 9293 §3.8.1 (retransmission timeout); RFC 5681 §3.2 (fast retransmit)",
                    "A TCP segment of an iWARP stream was sent again: either the capture holds both copies (lost "
                            + "after the capture point, or a spurious resend) or it fills a hole the receiver asked "
                            + "for with duplicate ACKs (lost before the capture point). iWARP relies on TCP for "
                            + "reliability, so every resend stalls the RDMA stream for at least a round trip. Typical "
                            + "cause: congestion drops, link errors, or a receive window too small."),
            rule("IW-TCP-002", Severity.NOTE, "TCP segment out of order", "RFC 9293 §3.10.7.4 (segment arrival)",
                    "A TCP segment of an iWARP stream arrived after later bytes of the same stream and nobody "
                            + "asked for it again: reordering on the path (ECMP, multipath NIC queues) rather than "
                            + "loss. The receiver must hold the later bytes; MPA framing is restored in order."),
            rule("IW-CAP-001", Severity.NOTE, "TCP bytes missing from the capture but acknowledged",
                    "RFC 9293 §3.4 (acknowledgement); capture limits",
                    "The receiver acknowledged bytes of an iWARP stream that the capture never held: they crossed "
                            + "the wire, the capture point missed them. The DDP segments in them are not shown and "
                            + "MPA framing is searched for again after the hole. Typical cause: a mirror port or "
                            + "capture buffer overrun."),
            rule("IW-MPA-001", Severity.ERROR, "MPA CRC does not verify",
                    "RFC 5044 §4.4 (CRC calculation), §8 (error: Terminate, LLP error code 2)",
                    "The CRC32c of an FPDU (over ULPDU length, ULPDU, pad and markers) does not match. The "
                            + "receiver must close the stream with a Terminate. Typical cause: data corrupted "
                            + "between the two MPA layers (a middlebox rewriting TCP payload, a NIC or driver bug); "
                            + "TCP's own checksum cannot catch it once a device recomputes it."),
            rule("IW-MPA-002", Severity.ERROR, "MPA marker does not point at its FPDU",
                    "RFC 5044 §4.2 (marker format), §4.3 (MPA markers); §8 (LLP error code 3)",
                    "A marker's FPDUPTR must count back to the ULPDU length field of the FPDU that holds it. A "
                            + "marker that does not means the sender placed markers or framed FPDUs wrongly; a "
                            + "receiver relying on markers loses the FPDU boundaries."),
            rule("IW-MPA-005", Severity.WARNING, "MPA markers in a layout other than RFC 5044's",
                    "RFC 5044 §5 (a marker every 512 octets of the stream counted from the end of the Request or "
                            + "Reply, every octet counted; FPDUPTR in network byte order)",
                    "A direction's markers point back at their FPDUs only when read in another layout than RFC "
                            + "5044 §5 gives: a marker clock that skips each FPDU's 4-octet CRC field, FPDUPTR "
                            + "written least significant octet first, or both (the OSC iWARP stack's layout, seen "
                            + "on a real capture; docs/iwarp.md). rdmascope reads them in that layout and keeps "
                            + "the FPDU framing; a receiver that places markers as the RFC says would lose it. "
                            + "Reported once per direction, at the first FPDU read in that layout."),
            rule("IW-MPA-003", Severity.ERROR, "Invalid MPA Request or Reply",
                    "RFC 5044 §7.1.1, §7.1.2 (startup frames); RFC 6581 (revision 2)",
                    "A direction of an iWARP connection did not start with a valid MPA Request (initiator) or "
                            + "Reply (responder): a wrong key, a revision other than 1 or 2, or more than 512 bytes "
                            + "of private data. The peer must close the connection (LLP error code 4)."),
            rule("IW-MPA-004", Severity.NOTE, "MPA connection rejected", "RFC 5044 §7.1.1 (R flag)",
                    "The responder's MPA Reply set the Reject flag: the connection will not enter full operation. "
                            + "Its private data usually says why (no listener, mismatched IRD/ORD or CRC settings)."),
            rule("IW-DDP-001", Severity.NOTE, "DDP version is not 1", "RFC 5041 §4.1 (DV field); §7.2",
                    "A DDP segment's version field is not 1, the only version RFC 5041 defines (0 is the RDMA "
                            + "Consortium's pre-IETF iWARP). An RFC 5041 data sink reports an invalid DDP version "
                            + "(tagged error 4, untagged error 6) and terminates; a peer of the same older kind "
                            + "accepts it, so on its own it is an interoperability note. Typical cause: a pre-IETF "
                            + "or home-grown stack (SoftUiWarp sends 0)."),
            rule("IW-DDP-002", Severity.ERROR, "Untagged message on the wrong queue",
                    "RFC 5040 §5 (queue numbers 0 Send, 1 Read Request, 2 Terminate); RFC 5041 §7.2 (invalid QN)",
                    "An untagged DDP segment names a queue its RDMAP message does not use (a Send not on queue 0, "
                            + "a Read Request not on 1, a Terminate not on 2). The data sink reports an invalid QN."),
            rule("IW-DDP-003", Severity.ERROR, "DDP message sequence number out of order",
                    "RFC 5041 §5.3 (MSN: 1 for the first message of a queue, one more per message); §7.2",
                    "An untagged message's MSN is not the next one on its queue. The data sink reports an invalid "
                            + "MSN and terminates. Typical cause: a sender bug, or a message the capture did not "
                            + "lose but the sender skipped."),
            rule("IW-DDP-005", Severity.WARNING, "Untagged MSNs numbered with one counter across queues",
                    "RFC 5041 §5.1, §5.3 (one MSN per queue, 1 for its first message); RFC 5040 §5 (queues 0, 1, 2)",
                    "A direction numbers its untagged messages with a single counter shared by the Send, Read "
                            + "Request and Terminate queues (Send MSN 1 on queue 0, Read Request MSN 2 on queue 1, "
                            + "Send MSN 3 on queue 0) where RFC 5041 keeps one counter per queue. A data sink that "
                            + "checks MSNs per queue as the RFC says would report an invalid MSN and terminate; a "
                            + "peer of the same kind accepts it. Reported once per direction; its later MSNs are "
                            + "then checked against the shared counter, so only a break in that sequence is an "
                            + "IW-DDP-003. Seen on a real iWARP NIC (a 2008 Wireshark sample capture; see "
                            + "docs/iwarp-nics.md)."),
            rule("IW-DDP-004", Severity.ERROR, "DDP segment out of its message's sequence",
                    "RFC 5041 §5.3 (MO), §5.2 (tagged offset), §6 (segments of a message in order); §7.2",
                    "A DDP segment does not continue its message: a message offset or tagged offset that skips or "
                            + "repeats bytes, a continuation with no first segment, or a new message while one is "
                            + "unfinished (it never gets its Last flag)."),
            rule("IW-RDMAP-001", Severity.NOTE, "RDMAP version is not 1", "RFC 5040 §4.1 (RV field); §7.3",
                    "An RDMAP message's version field is not 1, the only version RFC 5040 defines (0 is the RDMA "
                            + "Consortium's pre-IETF iWARP). An RFC 5040 receiver reports an invalid RDMAP version "
                            + "and terminates; a peer of the same older kind accepts it."),
            rule("IW-RDMAP-002", Severity.ERROR, "Unexpected RDMAP opcode", "RFC 5040 §4.2 (opcodes, buffer model)",
                    "An RDMAP opcode is reserved, or used with the wrong DDP buffer model (a tagged Send, an "
                            + "untagged Write or Read Response). The receiver reports an unexpected opcode."),
            rule("IW-RDMAP-003", Severity.ERROR, "Read Response that answers no Read Request",
                    "RFC 5040 §5.2 (RDMA Read), §4.5",
                    "A Read Response's sink STag and tagged offset match no outstanding Read Request of the other "
                            + "side. Typical cause: a responder bug, or a capture that misses the Read Request."),
            rule("IW-RDMAP-005", Severity.WARNING, "Read Request fields in little-endian byte order",
                    "RFC 5040 §4.4 (Read Request header); §4 (fields in network byte order)",
                    "A Read Request's Data Sink STag, tagged offset and message size (and its source fields) "
                            + "are byte-reversed: the Read Responses that answer it carry the byte-reversed STag "
                            + "and offset and return the byte-reversed size. The sender wrote the header in host "
                            + "(little-endian) order. The Read is matched to its responses all the same; reported "
                            + "once per direction. Seen on a real iWARP NIC (a 2008 Wireshark sample capture; see "
                            + "docs/iwarp-nics.md)."),
            rule("IW-RDMAP-004", Severity.ERROR, "Terminate: the RDMAP stream ended in error",
                    "RFC 5040 §4.8 (Terminate header), §5.4, §7 (error management)",
                    "A peer sent a Terminate message: it found an error (its layer, type and code say which: an "
                            + "invalid STag, a bounds violation, an MSN or CRC error...) and closes the stream; "
                            + "outstanding work on both sides completes in error."),
            rule("IW-MSG-001", Severity.WARNING, "iWARP message never completed",
                    "RFC 5040 §5 (data transfer); RFC 9293 (acknowledgement)",
                    "When the capture ended, a Send or Write had not been acknowledged by the peer's TCP, or a "
                            + "Read had not received its last Read Response. Typical cause: a stalled peer, or a "
                            + "capture stopped too early."),
            rule("RS-ENGINE-001", Severity.NOTE, "Analysis limit reached", "rdmascope replay limits",
                    "The replay engine stopped tracking more state (conversations, outstanding messages, missing "
                            + "PSNs) to keep memory bounded; analysis past the limit is partial."),
            // ---- capture artifacts told apart from traffic faults (issue 15) ----
            rule("IB-CAP-007", Severity.WARNING, "ICRC not verifiable on this capture",
                    "IBTA Vol. 1 7.8.1; Annex A17 (RoCEv2 ICRC); capture path (not a protocol fault)",
                    "No ICRC verifies on a whole capture, pcapng interface or sender (at least four frames, none "
                            + "good), so the bytes in the ICRC field are not the ones that crossed the wire: the "
                            + "finding stands for all of them, and none is counted as IB-ICRC-001. A capture where "
                            + "most frames verify keeps IB-ICRC-001 on the ones that do not. Typical cause: a NIC "
                            + "capturing its own traffic through an offload sniffer (ConnectX with ibdump or "
                            + "tcpdump on the RDMA device), which records frames before the ICRC is computed or "
                            + "after it was stripped. The traffic is judged on everything else; check --icrc strict "
                            + "reports every frame instead."),
            rule("IB-CAP-008", Severity.WARNING, "Frames cut without saying so",
                    "pcap/pcapng record lengths against IPv4 total length, IPv6 payload length, UDP length "
                            + "(not a protocol fault)",
                    "Frames are shorter than their own IP or UDP length, yet their capture records say the whole "
                            + "frame was kept (captured length equals wire length). They are treated as cut by a "
                            + "snap length: no ICRC is verified (the last four bytes are payload) and payload "
                            + "lengths come from the headers. Typical cause: a capture tool or NIC offload that "
                            + "writes the first bytes of large (segmentation-offloaded) packets and records the "
                            + "cut length as the wire length."),
            rule("IB-CAP-006", Severity.WARNING, "Frames cut inside their transport headers",
                    "pcap/pcapng snap length; IBTA Vol. 1 9.2-9.3 (BTH and extension headers)",
                    "The capture kept too few bytes of some RoCE frames to read their BTH or extension headers "
                            + "(RETH, AETH, DETH...), so the replay cannot tell their opcode, PSN or lengths and "
                            + "leaves them out: the conversations named are analysed without them, and may show "
                            + "gaps or unanswered requests that are only the capture's. Typical cause: a snap "
                            + "length below the headers (Ethernet, IP, UDP, BTH and extension headers need up to "
                            + "about 120 bytes); capture with -s 0 or -s 256."),
            rule("IB-LEN-005", Severity.ERROR, "Payload plus pad not a multiple of four bytes",
                    "IBTA Vol. 1 9.2 (BTH PadCnt: pad to a 4-byte boundary); 7.7 (LRH PktLen counts 4-byte words)",
                    "Payload and pad together must fill whole 4-byte words, on every opcode: the transport "
                            + "headers and the ICRC are whole words, and the LRH counts packets in words. A packet "
                            + "that is not is malformed and the receiver drops or rejects it. Typical cause: a "
                            + "sender computing PadCnt or the UDP length wrongly, or one that omits the pad bytes."),
            rule("IB-VP-DUP-001", Severity.WARNING, "Duplicate on the sender's side",
                    "IBTA Vol. 1 9.7.4.1.1 (duplicate requests); several vantage points (issue 20)",
                    "With captures from several vantage points: one point saw a packet twice, byte for byte, "
                            + "microseconds apart, and the next point downstream saw it once. The duplicate arose "
                            + "between the sender and the first point (the sending host, its NIC or its capture "
                            + "tool) and did not travel on, so the receiver was not troubled by it. Typical cause: a "
                            + "capture tool on the sending host that records a transmission twice, or a NIC or "
                            + "mirror duplicating a frame the next hop then dropped."),
            rule("IB-VP-LOSS-001", Severity.WARNING, "Response seen at one point, never downstream",
                    RC + ", R3.3 (a requester without its answer resends); several vantage points (issue 20)",
                    "With captures from several vantage points: an ACK, NAK, READ response or atomic ACK shows "
                            + "in the capture of a point near the responder and never in the capture of the next "
                            + "point toward the requester. It was lost between the two points (the requester will "
                            + "time out and resend), or that point's capture missed it. The union still counts the "
                            + "message complete, because one point saw its completion."),
            rule("ULP-RSP-001", Severity.ERROR, "Response for no outstanding command", ULP_IDS,
                    "A response (NVMe completion, iSCSI response PDU, RPC reply, SMB2 response) names a command "
                            + "id (CID, initiator task tag, XID, MessageId) that no command outstanding on its queue "
                            + "carries, on a queue whose start (the CM exchange) the capture holds: the command was "
                            + "never sent, or was answered already. An error: the requester has nothing to complete and "
                            + "treats it as a protocol failure (Linux's NVMe-oF host starts error recovery, a "
                            + "reconnect; an RPC client drops the reply). Without the queue's start in the capture "
                            + "the command may simply precede it: that is ULP-RSP-002, a note. Typical cause: a responder answering twice or with a wrong id, or "
                            + "(check for IB-CAP-002 first) a command frame the capture missed."),
            rule("ULP-RSP-002", Severity.NOTE, "Response to a command sent before the capture began", ULP_IDS,
                    "A response names no command the capture showed, on a queue whose start the capture does not "
                            + "hold: its command was most likely sent before the capture began. Said once per "
                            + "queue, at the first such response. Capture from before the connection is set up to "
                            + "check these responses too."),
            rule("ULP-ID-001", Severity.ERROR, "Command id reused while outstanding", ULP_IDS,
                    "A command carries the id of a command still outstanding on the same queue. The responder "
                            + "cannot tell the two apart: NVMe requires the CID to be unique among a submission "
                            + "queue's outstanding commands, iSCSI the initiator task tag among a session's tasks, "
                            + "RPC a distinct XID per call, SMB2 each MessageId used once. An error: the responder may "
                            + "complete the wrong command, and one command's data land in the other's buffer. "
                            + "Typical cause: an "
                            + "initiator recycling its id before the response came (a timeout handled wrongly)."),
            rule("ULP-DATA-001", Severity.ERROR, "RDMA transfer outside the command's buffers",
                    "NVMe-oF 1.1 §7.3.2 (keyed SGL); RFC 7145 §7.3.5 (iSER STags); RFC 8166 §3.4.5 (chunks); "
                            + "MS-SMB2 §2.2.19, §2.2.21 (buffer descriptors)",
                    "An RDMA READ or WRITE uses the R_Key (STag, handle, token) an outstanding command advertised, "
                            + "but the bytes it moves do not lie within any buffer a command advertised under that "
                            + "key. The responder reads or writes memory it was not given: the NIC refuses it "
                            + "(a remote access error) when the region is smaller, or corrupts the requester's data "
                            + "when it is not; an error either way. A transfer under a key no outstanding command advertised is not "
                            + "judged: its command may precede the capture, or belong to traffic that carries no "
                            + "storage protocol. Typical cause: a target computing offsets wrongly."),
            rule("ULP-UNANS-001", Severity.WARNING, "Command outstanding when its connection was torn down",
                    ULP_ANSWERS + "; IBTA Vol. 1 12.6.10 (DisconnectRequest)",
                    "A command had no response when a CM DisconnectRequest ended its connection: it failed, and "
                            + "the requester will report it aborted. Who gave up is in the DisconnectRequest's "
                            + "frame: a responder leaving commands unanswered, or a requester tearing down after its "
                            + "own timeout. A warning, not an error, for that reason: the finding cannot tell a "
                            + "responder's fault from a requester's deliberate abort. Commands answered only on an "
                            + "event (NVMe Asynchronous Event Request, SMB2 CHANGE_NOTIFY) are not counted."),
            rule("ULP-UNANS-002", Severity.ERROR, "Command sent after its connection's teardown began",
                    ULP_ANSWERS + "; IBTA Vol. 1 12.6.10 (DisconnectRequest)",
                    "A command went out on a connection after a CM DisconnectRequest for it and was never "
                            + "answered: the connection was already closing, so no response could come. An error: "
                            + "whatever the requester meant by it was lost, and the requester did not notice that "
                            + "its connection had gone. Typical "
                            + "cause: a requester that missed or ignored the disconnect and keeps using the queue "
                            + "(a keep-alive timer still running)."),
            rule("ULP-CAP-001", Severity.NOTE, "Command unanswered when the capture ended", ULP_ANSWERS,
                    "A command had no response when the capture stopped and its connection was not torn down in "
                            + "it: the response may simply have come later, so a note only. Capture longer to know. Commands "
                            + "answered only on an event are not counted."),
            rule("ULP-CREDIT-001", Severity.ERROR, "Message sent without a send credit",
                    "MS-SMBD §3.1.5.1 (send credits), §3.1.5.3, §2.2.2, §2.2.3 (CreditsGranted)",
                    "A peer sent an SMB Direct Data Transfer message while it held no send credit: every such "
                            + "message spends one of the credits its peer granted (in the Negotiate Response and "
                            + "in each message's CreditsGranted), each credit standing for a receive the peer has "
                            + "posted. Without one the message may find no receive buffer (an RNR NAK, or the "
                            + "connection torn down): an error. Judged only when the negotiation was captured (the "
                            + "credits held before it are unknown), in both directions: the responder holds none "
                            + "until the requester's first message grants some (MS-SMBD §4.1)."),
            rule("ULP-CREDIT-002", Severity.ERROR, "More calls outstanding than credits granted",
                    "RFC 8166 §3.3.1 (credits)",
                    "An RPC-over-RDMA requester sent a call while as many calls as the responder's credit grant "
                            + "(rdma_credit of its latest message) were already outstanding. The "
                            + "responder has a receive posted per credit; a call beyond them may find none, and "
                            + "the connection is lost: an error. Judged from the responder's first grant captured "
                            + "(before it, the requester's single initial credit is not checked)."));

    private static final Map<String, Rule> BY_ID = index();

    private RuleCatalog() {
    }

    /**
     * The id of the rule observations of {@code kind} raise, or null when they raise none (state changes,
     * PSN wraps, coalesced ACKs…). One exhaustive switch: a new kind does not compile until it is placed.
     */
    static String ruleIdOf(ObservationKind kind) {
        return switch (kind) {
            case PACKET_LOST -> "IB-RC-PSN-001";
            case MISSING_FROM_CAPTURE -> "IB-CAP-002";
            case DUPLICATE -> "IB-RC-PSN-002";
            case RETRANSMISSION -> "IB-RC-PSN-003";
            case ACK_TIMEOUT -> "IB-RC-TIMEOUT-001";
            case NAK_SEQUENCE_ERROR -> "IB-RC-NAK-001";
            case NAK_INVALID_REQUEST -> "IB-RC-NAK-002";
            case NAK_REMOTE_ACCESS_ERROR -> "IB-RC-NAK-003";
            case NAK_REMOTE_OPERATIONAL_ERROR -> "IB-RC-NAK-004";
            case NAK_INVALID_RD_REQUEST -> "IB-RC-NAK-005";
            case RNR_NAK -> "IB-RC-RNR-001";
            case RETRY_EXHAUSTED -> "IB-RC-TIMEOUT-002";
            case RNR_RETRY_EXHAUSTED -> "IB-RC-RNR-002";
            case MESSAGE_INCOMPLETE -> "IB-RC-MSG-001";
            case UNANSWERED_AT_CAPTURE_END -> "IB-CAP-003";
            case UC_MESSAGE_DROPPED -> "IB-UC-001";
            case MISSING_FIRST -> "IB-RC-OPSEQ-001";
            case MISSING_LAST -> "IB-RC-OPSEQ-002";
            case PAYLOAD_OVER_PMTU -> "IB-LEN-001";
            case SHORT_NON_FINAL_PACKET -> "IB-LEN-002";
            case DMA_LENGTH_MISMATCH -> "IB-LEN-003";
            case WRONG_PAD_COUNT -> "IB-LEN-004";
            case UNMATCHED_READ_RESPONSE -> "IB-RC-MATCH-001";
            case UNMATCHED_ATOMIC_ACK -> "IB-RC-MATCH-003";
            case ACK_OF_UNSENT_PSN -> "IB-RC-MATCH-002";
            case ECN_CE -> "IB-CC-001";
            case CNP -> "IB-CC-002";
            case BAD_ICRC -> "IB-ICRC-001";
            case BAD_VCRC -> "IB-VCRC-001";
            case TRUNCATED_FRAME -> "IB-CAP-001";
            case CM_REJECT -> "IB-CM-001";
            case MALFORMED -> "IB-HDR-001";
            case LIMIT_REACHED -> "RS-ENGINE-001";
            case PAIRING_UNDECIDED -> "IB-CAP-005";
            case TIMESTAMP_INVERSION -> "IB-CAP-004";
            case TCP_RETRANSMISSION -> "IW-TCP-001";
            case TCP_OUT_OF_ORDER -> "IW-TCP-002";
            case TCP_MISSING_FROM_CAPTURE -> "IW-CAP-001";
            case MPA_CRC_ERROR -> "IW-MPA-001";
            case MPA_MARKER_ERROR -> "IW-MPA-002";
            case MPA_INVALID_STARTUP -> "IW-MPA-003";
            case MPA_REJECT -> "IW-MPA-004";
            case DDP_VERSION -> "IW-DDP-001";
            case DDP_INVALID_QUEUE -> "IW-DDP-002";
            case DDP_MSN_SEQUENCE -> "IW-DDP-003";
            case DDP_SEGMENT_SEQUENCE -> "IW-DDP-004";
            case RDMAP_VERSION -> "IW-RDMAP-001";
            case RDMAP_UNEXPECTED_OPCODE -> "IW-RDMAP-002";
            case RDMAP_UNMATCHED_READ_RESPONSE -> "IW-RDMAP-003";
            case RDMAP_TERMINATE -> "IW-RDMAP-004";
            case IWARP_MESSAGE_INCOMPLETE -> "IW-MSG-001";
            case ICRC_NOT_VERIFIABLE -> "IB-CAP-007";
            case FRAMES_CUT_SILENTLY -> "IB-CAP-008";
            case HEADERS_CUT -> "IB-CAP-006";
            case PAD_MISALIGNED -> "IB-LEN-005";
            case PSN_REUSED -> "IB-RC-PSN-004";
            case MSN_INCONSISTENT -> "IB-RC-MSN-001";
            case QP_STALLED -> "IB-RC-STALL-001";
            case TORN_DOWN_WITH_OUTSTANDING -> "IB-RC-TEARDOWN-001";
            case DDP_MSN_SHARED_COUNTER -> "IW-DDP-005";
            case RDMAP_READ_REQUEST_BYTE_ORDER -> "IW-RDMAP-005";
            case MPA_MARKER_LAYOUT -> "IW-MPA-005";
            case SENDER_SIDE_DUPLICATE -> "IB-VP-DUP-001";
            case RESPONSE_NOT_DOWNSTREAM -> "IB-VP-LOSS-001";
            case ULP_RESPONSE_WITHOUT_COMMAND -> "ULP-RSP-001";
            case ULP_RESPONSE_BEFORE_CAPTURE -> "ULP-RSP-002";
            case ULP_ID_REUSED -> "ULP-ID-001";
            case ULP_TRANSFER_OUTSIDE_BUFFERS -> "ULP-DATA-001";
            case ULP_UNANSWERED_AT_TEARDOWN -> "ULP-UNANS-001";
            case ULP_COMMAND_AFTER_TEARDOWN -> "ULP-UNANS-002";
            case ULP_UNANSWERED_AT_CAPTURE_END -> "ULP-CAP-001";
            case ULP_SEND_CREDIT_OVERRUN -> "ULP-CREDIT-001";
            case ULP_CALL_CREDIT_OVERRUN -> "ULP-CREDIT-002";
            // state changes and facts worth a field, not a finding
            case NAK_RESERVED, COALESCED_ACK, PSN_WRAP, QP_STATE, MPA_RESYNC -> null;
        };
    }

    private static Rule rule(String id, Severity severity, String summary, String reference, String explanation) {
        List<ObservationKind> raisedBy = new java.util.ArrayList<>();
        for (ObservationKind k : ObservationKind.values()) {
            if (id.equals(ruleIdOf(k))) {
                raisedBy.add(k);
            }
        }
        return new Rule(id, 1, severity, summary, reference, explanation, raisedBy);
    }

    private static Map<String, Rule> index() {
        Map<String, Rule> m = new LinkedHashMap<>();
        for (Rule r : RULES) {
            if (m.put(r.id(), r) != null) {
                throw new IllegalStateException("rule id twice: " + r.id());
            }
        }
        for (ObservationKind k : ObservationKind.values()) {
            if (ruleIdOf(k) != null && !m.containsKey(ruleIdOf(k))) {
                throw new IllegalStateException(k + " raises " + ruleIdOf(k) + ", which the catalog lacks");
            }
        }
        return m;
    }

    /** All rules, in catalog order. */
    /**
     * Rules whose findings follow from earlier trouble when there was some (issue 15, root cause first):
     * recovery (retransmissions, timeouts, sequence NAKs), the end of a connection (stalls, teardown,
     * exhausted retries, fatal NAKs, messages never completed, storage commands a teardown left
     * unanswered) and answers that make sense only as a
     * reaction (an ACK of a PSN never sent after a PSN reuse). On their own they are root causes.
     */
    private static final java.util.Set<String> CONSEQUENCE_KINDS = java.util.Set.of("IB-RC-PSN-003", "IB-RC-TIMEOUT-001",
            "IB-RC-TIMEOUT-002", "IB-RC-RNR-002", "IB-RC-NAK-001", "IB-RC-NAK-002", "IB-RC-NAK-003", "IB-RC-NAK-004",
            "IB-RC-MATCH-001", "IB-RC-MATCH-002", "IB-RC-MATCH-003", "IB-RC-STALL-001", "IB-RC-TEARDOWN-001",
            "IB-RC-MSG-001", "IB-UC-001", "IW-TCP-001", "IW-RDMAP-004", "IW-MSG-001", "ULP-UNANS-001");

    /**
     * Whether rule {@code ruleId} gives one finding per conversation (listing frames and a count) rather
     * than one per observation: packets missing from the capture, which a lossy capture of a busy QP shows
     * thousands of times (issue 15: say how much of the analysis rests on missing frames, once).
     */
    public static boolean isSummarisedPerConversation(String ruleId) {
        return "IB-CAP-002".equals(ruleId);
    }

    /** The rule ids whose findings can be consequences, for checking the list against the catalog. */
    static java.util.Set<String> consequenceKinds() {
        return CONSEQUENCE_KINDS;
    }

    /** Whether findings of rule {@code ruleId} follow from an earlier anomaly of their conversation when there is one. */
    public static boolean isConsequenceKind(String ruleId) {
        return CONSEQUENCE_KINDS.contains(ruleId);
    }

    public static List<Rule> all() {
        return RULES;
    }

    /** The rule with this id, or null. */
    public static Rule byId(String id) {
        return BY_ID.get(id);
    }

    /** The rule an observation kind raises, or null when it raises none (state changes, PSN wraps…). */
    public static Rule forObservation(ObservationKind kind) {
        String id = ruleIdOf(kind);
        return id == null ? null : BY_ID.get(id);
    }
}

package io.rdmascope.replay;

/**
 * Something the replay engine noticed, citing the frame it shows in (0 when nothing on the wire
 * shows it). The engine never decides severity: conformance rules map observations to findings.
 * {@link #kind()}'s id is a stable snake_case name, the one the scenario truth files use.
 */
public sealed interface Observation {

    /** Frame number (1-based), or 0 when no frame shows it. */
    long frame();

    /** Conversation id ("1", "2", … in order of first frame), or null for none. */
    String conversation();

    /** The observation's kind; {@link ObservationKind#id()} is its stable name. */
    ObservationKind kind();

    /** The PSN it concerns, or -1. */
    default int psn() {
        return -1;
    }

    /** One line for people. */
    String detail();

    /**
     * Why a retransmission happened (IBTA 9.7.4.1.5 go-back-N triggers). IMPLIED_NAK: a READ or
     * atomic (or FLUSH, ATOMIC WRITE) resent right after a response to a later PSN showed its own
     * answer was lost (R3.2 implied NAK, R3.7 READ response gap), not after the ACK timer.
     */
    enum Trigger { NAK, RNR_NAK, TIMEOUT, IMPLIED_NAK }

    /** NAK codes of the AETH (IBTA 9.7.5.2, table 46). */
    enum NakCode {
        PSN_SEQUENCE_ERROR(ObservationKind.NAK_SEQUENCE_ERROR, "PSN sequence error"),
        INVALID_REQUEST(ObservationKind.NAK_INVALID_REQUEST, "invalid request"),
        REMOTE_ACCESS_ERROR(ObservationKind.NAK_REMOTE_ACCESS_ERROR, "remote access error"),
        REMOTE_OPERATIONAL_ERROR(ObservationKind.NAK_REMOTE_OPERATIONAL_ERROR, "remote operational error"),
        INVALID_RD_REQUEST(ObservationKind.NAK_INVALID_RD_REQUEST, "invalid RD request"),
        RESERVED(ObservationKind.NAK_RESERVED, "reserved NAK code");

        final ObservationKind kind;
        final String text;

        NakCode(ObservationKind kind, String text) {
            this.kind = kind;
            this.text = text;
        }

        static NakCode of(int code) {
            return code <= 4 ? values()[code] : RESERVED;
        }
    }

    /** Length rules of IBTA 9.7.5.1.3 / C9-92, C9-94 and the pad rule of 9.2 (BTH.PadCnt). */
    enum LengthRule {
        PAYLOAD_OVER_PMTU(ObservationKind.PAYLOAD_OVER_PMTU),
        SHORT_NON_FINAL_PACKET(ObservationKind.SHORT_NON_FINAL_PACKET),
        DMA_LENGTH_MISMATCH(ObservationKind.DMA_LENGTH_MISMATCH),
        WRONG_PAD_COUNT(ObservationKind.WRONG_PAD_COUNT);

        final ObservationKind kind;

        LengthRule(ObservationKind kind) {
            this.kind = kind;
        }
    }

    /** A response nothing outstanding asked for. */
    enum Unmatched {
        READ_RESPONSE(ObservationKind.UNMATCHED_READ_RESPONSE),
        ATOMIC_ACK(ObservationKind.UNMATCHED_ATOMIC_ACK),
        ACK_OF_UNSENT_PSN(ObservationKind.ACK_OF_UNSENT_PSN);

        final ObservationKind kind;

        Unmatched(ObservationKind kind) {
            this.kind = kind;
        }
    }

    /** A request PSN lost on the wire: NAK'd or retransmitted (before or after the capture point). */
    record PacketLost(long frame, String conversation, int psn, boolean afterCapturePoint) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.PACKET_LOST;
        }

        public String detail() {
            return "PSN " + psn + " lost " + (afterCapturePoint ? "after" : "before") + " the capture point";
        }
    }

    /** A request PSN absent from the capture that the responder acknowledged anyway. */
    record MissingFromCapture(long frame, String conversation, int psn) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.MISSING_FROM_CAPTURE;
        }

        public String detail() {
            return "PSN " + psn + " not in the capture but acknowledged";
        }
    }

    /** An isolated identical copy of a request: a fabric or mirror duplicate, not a retransmission. */
    record Duplicate(long frame, String conversation, int psn, long originalFrame) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.DUPLICATE;
        }

        public String detail() {
            return "copy of frame " + originalFrame;
        }
    }

    /**
     * Issue 20, vantage points disagreeing: two byte-identical copies, close together, at point
     * {@code copiesAt} (frames {@code firstCopyFrame}, {@code secondCopyFrame} of its capture), of which
     * the next point downstream, {@code onceAt}, saw one (its frame {@code onceFrame}): the duplicate arose
     * on the sender's side of the path (the sending host, its NIC or its capture) and did not travel on.
     * {@code frame} is the union frame of the copy the downstream point lacks.
     */
    record SenderSideDuplicate(long frame, String conversation, int psn, String copiesAt, long firstCopyFrame,
                               long secondCopyFrame, String onceAt, long onceFrame) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.SENDER_SIDE_DUPLICATE;
        }

        public String detail() {
            return "PSN " + psn + " twice at " + copiesAt + " (frames " + firstCopyFrame + ", " + secondCopyFrame
                    + "), once at " + onceAt + " (frame " + onceFrame + ")";
        }
    }

    /**
     * Issue 20, vantage points disagreeing: a response (ACK, NAK, READ response, atomic ACK) point
     * {@code seenAt} saw (its frame {@code seenFrame}) and {@code missingAt}, downstream of it on the way to
     * the requester, never saw in any copy: lost between them, or missed by {@code missingAt}'s capture.
     */
    record ResponseNotDownstream(long frame, String conversation, int psn, String opcode, String seenAt,
                                 long seenFrame, String missingAt) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.RESPONSE_NOT_DOWNSTREAM;
        }

        public String detail() {
            return opcode + " PSN " + psn + " seen at " + seenAt + " (frame " + seenFrame + "), never at "
                    + missingAt;
        }
    }

    /** A request sent again by the requester. */
    record Retransmission(long frame, String conversation, int psn, Trigger trigger) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.RETRANSMISSION;
        }

        public String detail() {
            return switch (trigger) {
                case NAK -> "go-back-N after NAK";
                case RNR_NAK -> "retry after RNR NAK";
                case TIMEOUT -> "local ACK timeout";
                case IMPLIED_NAK -> "resent after a later PSN was answered first (implied NAK)";
            };
        }
    }

    /** A retransmission run that no NAK triggered: the requester's local ACK timer fired (C9-140). */
    record AckTimeout(long frame, String conversation, int psn, long silenceNanos) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.ACK_TIMEOUT;
        }

        public String detail() {
            return "resent after " + silenceNanos / 1000 + " µs without acknowledgement";
        }
    }

    /** A NAK (AETH syndrome 011xxxxx). */
    record Nak(long frame, String conversation, int psn, NakCode code) implements Observation {
        public ObservationKind kind() {
            return code.kind;
        }

        public String detail() {
            return "NAK " + code.text + " at PSN " + psn;
        }
    }

    /** A receiver-not-ready NAK (AETH syndrome 001ttttt). */
    record RnrNak(long frame, String conversation, int psn, int timerCode, long timerNanos) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.RNR_NAK;
        }

        public String detail() {
            return "RNR NAK at PSN " + psn + ", retry after " + timerNanos / 1000.0 + " µs (code " + timerCode + ")";
        }
    }

    /** The requester gave up: RNR retries or transport retries exhausted (R3.4, R3.6). */
    record RetryExhausted(long frame, String conversation, int psn, boolean rnr, int attempts) implements Observation {
        public ObservationKind kind() {
            return rnr ? ObservationKind.RNR_RETRY_EXHAUSTED : ObservationKind.RETRY_EXHAUSTED;
        }

        public String detail() {
            return (rnr ? "RNR" : "transport") + " retries exhausted after " + attempts + " transmissions";
        }
    }

    /**
     * A new request at a PSN an earlier, different request already used (IBTA 9.7.4.1.1: the requester
     * gives each new packet the next PSN, and sends a used PSN again only to resend the same request,
     * C9-105): a requester bug, not a retransmission. {@code earlier} says what used it (its frame is
     * {@code earlierFrame}, 0 when the capture did not show it).
     */
    record PsnReused(long frame, String conversation, int psn, String request, String earlier, long earlierFrame)
            implements Observation {
        public ObservationKind kind() {
            return ObservationKind.PSN_REUSED;
        }

        public String detail() {
            return request + " at PSN " + psn + ", already used by " + earlier
                    + (earlierFrame > 0 ? " (frame " + earlierFrame + ")" : "") + ": a new request, not a retransmission";
        }
    }

    /**
     * Requests outstanding and nothing moving (no ACK advancing, no transmission) for longer than the
     * requester's retry budget, T_tr x (retry_cnt + 1) (C9-140, R3.6): by then it should have resent or
     * given up. {@code frame} is the last frame that made progress; {@code until} what ended the silence.
     */
    record QpStalled(long frame, String conversation, int psn, MessageKind messageKind, long messageFrame,
                     long silenceNanos, long budgetNanos, String until) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.QP_STALLED;
        }

        public String detail() {
            return messageKind + " at PSN " + psn + " (frame " + messageFrame + ") unacknowledged; nothing moved for "
                    + Durations.text(silenceNanos) + " after this frame until " + until + " (retry budget "
                    + Durations.text(budgetNanos) + ")";
        }
    }

    /**
     * The connection ended (CM DisconnectRequest or Reject, a fatal NAK, retries exhausted) while
     * messages were outstanding: they fail (IBTA 10.3.1 error state: outstanding work requests are
     * flushed in error). {@code psn} is the oldest's; {@code messages} names the first few.
     */
    record TornDownWithOutstanding(long frame, String conversation, int psn, String cause, int count, String messages)
            implements Observation {
        public ObservationKind kind() {
            return ObservationKind.TORN_DOWN_WITH_OUTSTANDING;
        }

        public String detail() {
            return cause + " with " + count + (count == 1 ? " message" : " messages") + " outstanding: " + messages;
        }
    }

    /**
     * An AETH MSN that cannot be right (C9-148: the responder's count of accepted messages, 24 bits,
     * one step at most per PSN sent): lower than an earlier answer's at a newer PSN, or higher by more
     * than the PSNs the requester had sent since that answer's PSN.
     */
    record MsnInconsistent(long frame, String conversation, int psn, int msn, int earlierMsn, int earlierPsn,
                           long earlierFrame) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.MSN_INCONSISTENT;
        }

        public String detail() {
            int step = Psn.diff(msn, earlierMsn);
            return "MSN " + msn + " at PSN " + psn + " after MSN " + earlierMsn + " at PSN " + earlierPsn + " (frame "
                    + earlierFrame + "): " + (step < 0 ? "went backwards" : "grew by " + step
                    + ", more than the PSNs sent since");
        }
    }

    /** A message still open or unanswered when the capture ends. */
    record MessageIncomplete(long frame, String conversation, int psn, MessageKind messageKind)
            implements Observation {
        public ObservationKind kind() {
            return ObservationKind.MESSAGE_INCOMPLETE;
        }

        public String detail() {
            return messageKind + " at PSN " + psn + " never completed";
        }
    }

    /**
     * A message unanswered when the capture ended, sent less than its requester's ACK timeout before
     * the end: the answer may simply have come after the capture stopped.
     */
    record UnansweredAtEnd(long frame, String conversation, int psn, MessageKind messageKind)
            implements Observation {
        public ObservationKind kind() {
            return ObservationKind.UNANSWERED_AT_CAPTURE_END;
        }

        public String detail() {
            return messageKind + " at PSN " + psn + " sent less than an ACK timeout before the capture ended";
        }
    }

    /** UC: a packet of the message never arrived, so the responder dropped all of it (IBTA 9.8.3). */
    record UcMessageDropped(long frame, String conversation, int psn) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.UC_MESSAGE_DROPPED;
        }

        public String detail() {
            return "UC message from PSN " + psn + " dropped: a packet is missing";
        }
    }

    /** Opcode sequence violation (R2.2): a MIDDLE/LAST with no FIRST, or a new message while one is open. */
    record OpcodeSequence(long frame, String conversation, int psn, boolean missingFirst) implements Observation {
        public ObservationKind kind() {
            return missingFirst ? ObservationKind.MISSING_FIRST : ObservationKind.MISSING_LAST;
        }

        public String detail() {
            return missingFirst ? "MIDDLE or LAST with no FIRST before it" : "new message while another is open";
        }
    }

    /** A length rule broken. */
    record LengthViolation(long frame, String conversation, int psn, LengthRule rule, long expected, long actual)
            implements Observation {
        public ObservationKind kind() {
            return rule.kind;
        }

        public String detail() {
            return rule.kind.id().replace('_', ' ') + ": expected " + expected + ", got " + actual;
        }
    }

    /** A response that answers nothing outstanding. */
    record UnmatchedResponse(long frame, String conversation, int psn, Unmatched what, String why)
            implements Observation {
        UnmatchedResponse(long frame, String conversation, int psn, Unmatched what) {
            this(frame, conversation, psn, what, null);
        }

        public ObservationKind kind() {
            return what.kind;
        }

        public String detail() {
            return what.kind.id().replace('_', ' ') + " at PSN " + psn + (why == null ? "" : ": " + why);
        }
    }

    /** An ACK that completed more than one message. */
    record CoalescedAck(long frame, String conversation, int psn, int messages) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.COALESCED_ACK;
        }

        public String detail() {
            return messages + " messages";
        }
    }

    /** The PSN wrapped from 0xFFFFFF to 0 inside a message or a READ's responses. */
    record PsnWrap(long frame, String conversation, int psn) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.PSN_WRAP;
        }

        public String detail() {
            return "PSN wrapped to " + psn;
        }
    }

    /** An ECN Congestion Experienced mark (RFC 3168) on a data packet. */
    record CeMark(long frame, String conversation, int psn) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.ECN_CE;
        }

        public String detail() {
            return "ECN CE at PSN " + psn;
        }
    }

    /** A congestion notification packet (Annex A17.9.3) to a QP. */
    record Cnp(long frame, String conversation, int destQp) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.CNP;
        }

        public String detail() {
            return "CNP to QP 0x" + Integer.toHexString(destQp);
        }
    }

    /** A bad ICRC or VCRC. */
    record BadCrc(long frame, String conversation, int psn, boolean variant) implements Observation {
        public ObservationKind kind() {
            return variant ? ObservationKind.BAD_VCRC : ObservationKind.BAD_ICRC;
        }

        public String detail() {
            return (variant ? "VCRC" : "ICRC") + " does not verify";
        }
    }

    /** A frame the capture cut short (snap length): headers seen, payload or ICRC not. */
    record TruncatedFrame(long frame, String conversation, int psn, int captured, int wire) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.TRUNCATED_FRAME;
        }

        public String detail() {
            return captured + " of " + wire + " bytes captured";
        }
    }

    /** A QP lifecycle transition seen on the wire (CM, fatal NAK, retries exhausted). */
    record StateChange(long frame, String conversation, String state) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.QP_STATE;
        }

        public String detail() {
            return state;
        }
    }

    /** A CM REJ of a connection request (IBTA 12.6.7). */
    record CmReject(long frame, String conversation, int reason, String reasonText) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.CM_REJECT;
        }

        public String detail() {
            return reasonText;
        }
    }

    /**
     * Responses reached the capture before the requests they answer, by up to {@code skewNanos}: the
     * capture point timestamps {@code laggingHost}'s transmissions late (a host capturing its own
     * traffic sees its sends after the peer's replies). Replayed in causal order; not a protocol error.
     */
    record TimestampInversion(long frame, String conversation, long skewNanos, String laggingHost)
            implements Observation {
        public ObservationKind kind() {
            return ObservationKind.TIMESTAMP_INVERSION;
        }

        public String detail() {
            return "responses precede their requests by up to " + skewNanos / 1000.0 + " µs: " + laggingHost
                    + "'s transmissions are timestamped late";
        }
    }

    /**
     * A direction whose reverse the capture never identified: no response fell inside the requests of
     * exactly one candidate, and no unique UDP source port matched. It stands alone; its requester's QP
     * number is unknown.
     */
    record PairingUndecided(long frame, String conversation, int destQp) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.PAIRING_UNDECIDED;
        }

        public String detail() {
            return "traffic to QP 0x" + Integer.toHexString(destQp) + " could not be paired with its reverse direction";
        }
    }

    /**
     * A frame the dissectors marked malformed ({@code _ws.malformed}): a header shorter than its type
     * or a length that contradicts the packet. Frames merely cut by the snap length are reported as
     * {@link TruncatedFrame} instead.
     */
    record Malformed(long frame, String conversation) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.MALFORMED;
        }

        public String detail() {
            return "malformed header";
        }
    }

    /**
     * What the replay of an iWARP connection notices (issue 8): its TCP stream (RFC 9293), MPA framing
     * (RFC 5044), DDP segments (RFC 5041) and RDMAP messages (RFC 5040). {@link #psn()} carries the
     * DDP message sequence number where one applies (iWARP has no PSNs), else -1.
     */
    enum IwarpEvent {
        TCP_RETRANSMISSION(ObservationKind.TCP_RETRANSMISSION),
        TCP_OUT_OF_ORDER(ObservationKind.TCP_OUT_OF_ORDER),
        TCP_MISSING_FROM_CAPTURE(ObservationKind.TCP_MISSING_FROM_CAPTURE),
        MPA_CRC_ERROR(ObservationKind.MPA_CRC_ERROR),
        MPA_MARKER_ERROR(ObservationKind.MPA_MARKER_ERROR),
        MPA_INVALID_STARTUP(ObservationKind.MPA_INVALID_STARTUP),
        MPA_REJECT(ObservationKind.MPA_REJECT),
        MPA_RESYNC(ObservationKind.MPA_RESYNC),
        DDP_VERSION(ObservationKind.DDP_VERSION),
        DDP_INVALID_QUEUE(ObservationKind.DDP_INVALID_QUEUE),
        DDP_MSN_SEQUENCE(ObservationKind.DDP_MSN_SEQUENCE),
        DDP_SEGMENT_SEQUENCE(ObservationKind.DDP_SEGMENT_SEQUENCE),
        RDMAP_VERSION(ObservationKind.RDMAP_VERSION),
        RDMAP_UNEXPECTED_OPCODE(ObservationKind.RDMAP_UNEXPECTED_OPCODE),
        RDMAP_UNMATCHED_READ_RESPONSE(ObservationKind.RDMAP_UNMATCHED_READ_RESPONSE),
        RDMAP_TERMINATE(ObservationKind.RDMAP_TERMINATE),
        IWARP_MESSAGE_INCOMPLETE(ObservationKind.IWARP_MESSAGE_INCOMPLETE),
        /** Real NICs (issue 16): one MSN counter for all untagged queues of a direction. */
        DDP_MSN_SHARED_COUNTER(ObservationKind.DDP_MSN_SHARED_COUNTER),
        /** Real NICs (issue 16): a Read Request's sink and source fields in little-endian byte order. */
        RDMAP_READ_REQUEST_BYTE_ORDER(ObservationKind.RDMAP_READ_REQUEST_BYTE_ORDER),
        /** Real senders (issue 16): MPA markers in a layout other than RFC 5044 §5's. */
        MPA_MARKER_LAYOUT(ObservationKind.MPA_MARKER_LAYOUT);

        private final ObservationKind kind;

        IwarpEvent(ObservationKind kind) {
            this.kind = kind;
        }

        public ObservationKind kind() {
            return kind;
        }
    }

    /** Something the iWARP replay noticed; {@code msn} is -1 where no DDP message sequence number applies. */
    record Iwarp(long frame, String conversation, int msn, IwarpEvent event, String detail) implements Observation {
        public ObservationKind kind() {
            return event.kind();
        }

        public int psn() {
            return msn;
        }
    }

    /** A state limit was hit: tracking stopped growing there (bounded memory). */
    record LimitReached(long frame, String conversation, String limit) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.LIMIT_REACHED;
        }

        public String detail() {
            return limit;
        }
    }

    // ---- capture artifacts told apart from traffic faults (issue 15) ----------------------------------

    /**
     * No ICRC of a capture, pcapng interface or sender verifies: the capture path (a NIC-offload
     * sniffer, a tool rewriting frames) stored something else there, so the ICRCs say nothing about
     * the traffic. Stands for {@code count} bad ICRCs that are not reported one by one. {@code frame}
     * is the first of them; {@code scope} says where ("this capture", "interface 1", "sender 10.0.0.1").
     */
    record IcrcNotVerifiable(long frame, String conversation, String scope, long count, String senders,
                             String frames) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.ICRC_NOT_VERIFIABLE;
        }

        public String detail() {
            return "ICRC not verifiable on " + scope + ": none of its " + count + " checked frames verifies (from "
                    + senders + "; frames " + frames + "); the capture path does not keep the ICRC that was sent";
        }
    }

    /**
     * Frames shorter than their own IPv4/IPv6/UDP (or GRH/LRH) length whose capture records claim they
     * are whole: a capture tool cut them without saying so. Treated as snap-length cuts (no ICRC, payload
     * length from the headers). Once per capture; {@code frame} is the first.
     */
    record FramesCutSilently(long frame, String conversation, long count, String frames) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.FRAMES_CUT_SILENTLY;
        }

        public String detail() {
            return count + (count == 1 ? " frame" : " frames") + " shorter than their own IP/UDP length though the capture says they are whole "
                    + "(frames " + frames + ")";
        }
    }

    /**
     * RoCE frames cut by the capture inside the transport headers the analysis needs (BTH or an
     * extension header): the replay could not place or follow them. Once per capture; {@code frame} is
     * the first; {@code conversations} names where the analysis is therefore incomplete.
     */
    record HeadersCut(long frame, String conversation, long count, String frames, String conversations)
            implements Observation {
        public ObservationKind kind() {
            return ObservationKind.HEADERS_CUT;
        }

        public String detail() {
            return count + (count == 1 ? " frame" : " frames") + " cut inside their transport headers (frames " + frames + "); analysis incomplete "
                    + "for " + conversations;
        }
    }

    /** A packet whose payload plus pad is not a whole number of 4-byte words (IBTA 9.2, BTH PadCnt). */
    record PadMisaligned(long frame, String conversation, int psn, long payload, int pad) implements Observation {
        public ObservationKind kind() {
            return ObservationKind.PAD_MISALIGNED;
        }

        public String detail() {
            return "payload " + payload + " + pad " + pad + " = " + (payload + pad) + " bytes, not a multiple of 4";
        }
    }

    // ---- storage protocols' operations (issue 19) -------------------------------------------------------

    /** What the storage operation rules notice, each with the observation kind it is. */
    enum UlpEvent {
        /** A response naming no outstanding command on a queue whose start the capture holds. */
        RESPONSE_WITHOUT_COMMAND(ObservationKind.ULP_RESPONSE_WITHOUT_COMMAND),
        /** A response naming no outstanding command on a queue set up before the capture began. */
        RESPONSE_BEFORE_CAPTURE(ObservationKind.ULP_RESPONSE_BEFORE_CAPTURE),
        ID_REUSED(ObservationKind.ULP_ID_REUSED),
        TRANSFER_OUTSIDE_BUFFERS(ObservationKind.ULP_TRANSFER_OUTSIDE_BUFFERS),
        UNANSWERED_AT_TEARDOWN(ObservationKind.ULP_UNANSWERED_AT_TEARDOWN),
        COMMAND_AFTER_TEARDOWN(ObservationKind.ULP_COMMAND_AFTER_TEARDOWN),
        UNANSWERED_AT_CAPTURE_END(ObservationKind.ULP_UNANSWERED_AT_CAPTURE_END),
        SEND_CREDIT_OVERRUN(ObservationKind.ULP_SEND_CREDIT_OVERRUN),
        CALL_CREDIT_OVERRUN(ObservationKind.ULP_CALL_CREDIT_OVERRUN);

        private final ObservationKind kind;

        UlpEvent(ObservationKind kind) {
            this.kind = kind;
        }

        public ObservationKind kind() {
            return kind;
        }
    }

    /**
     * A storage protocol's command, response, transfer or credit breaking its rules (issue 19, item 7),
     * noticed by {@code io.rdmascope.ops.OperationRules} beside the replay.
     *
     * @param protocol tshark's filter name of the protocol ({@code nvme-rdma}, {@code iser}, ...)
     * @param queue    the queue as {@code ops} shows it ("qid 1 QP 0x000abc/0x000def")
     * @param id       the command id as tshark shows it (CID, task tag, XID, message id), or null for a
     *                 transfer, which names a key and an address instead
     * @param what     what happened, for people
     */
    record Ulp(long frame, String conversation, UlpEvent event, String protocol, String queue, String id,
               String what) implements Observation {
        public ObservationKind kind() {
            return event.kind();
        }

        public String detail() {
            return protocol + " " + queue + (id == null ? "" : " id " + id) + ": " + what;
        }
    }
}

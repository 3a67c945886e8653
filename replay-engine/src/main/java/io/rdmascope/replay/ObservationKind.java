package io.rdmascope.replay;

import java.util.HashMap;
import java.util.Map;

/**
 * Every kind of {@link Observation}, in one place (issue 19): each consumer (rules, per-frame analysis
 * fields, expectations, the ladder) switches over this enum, so a kind added here without a case
 * there does not compile instead of silently becoming unfilterable. {@link #id()} is the stable
 * snake_case name the truth files, the JSON reports and the {@code rdmascope.analysis.*} fields use;
 * {@link #toString()} gives it too. The order is the per-frame bit order of {@link FrameAnalysis}.
 */
public enum ObservationKind {
    // RC transport
    PACKET_LOST("packet_lost"),
    MISSING_FROM_CAPTURE("missing_from_capture"),
    DUPLICATE("duplicate"),
    RETRANSMISSION("retransmission"),
    ACK_TIMEOUT("ack_timeout"),
    NAK_SEQUENCE_ERROR("nak_sequence_error"),
    NAK_INVALID_REQUEST("nak_invalid_request"),
    NAK_REMOTE_ACCESS_ERROR("nak_remote_access_error"),
    NAK_REMOTE_OPERATIONAL_ERROR("nak_remote_operational_error"),
    NAK_INVALID_RD_REQUEST("nak_invalid_rd_request"),
    NAK_RESERVED("nak_reserved"),
    RNR_NAK("rnr_nak"),
    RETRY_EXHAUSTED("retry_exhausted"),
    RNR_RETRY_EXHAUSTED("rnr_retry_exhausted"),
    MESSAGE_INCOMPLETE("message_incomplete"),
    UNANSWERED_AT_CAPTURE_END("unanswered_at_capture_end"),
    UC_MESSAGE_DROPPED("uc_message_dropped"),
    MISSING_FIRST("missing_first"),
    MISSING_LAST("missing_last"),
    PAYLOAD_OVER_PMTU("payload_over_pmtu"),
    SHORT_NON_FINAL_PACKET("short_non_final_packet"),
    DMA_LENGTH_MISMATCH("dma_length_mismatch"),
    WRONG_PAD_COUNT("wrong_pad_count"),
    UNMATCHED_READ_RESPONSE("unmatched_read_response"),
    UNMATCHED_ATOMIC_ACK("unmatched_atomic_ack"),
    ACK_OF_UNSENT_PSN("ack_of_unsent_psn"),
    COALESCED_ACK("coalesced_ack"),
    PSN_WRAP("psn_wrap"),
    ECN_CE("ecn_ce"),
    CNP("cnp"),
    BAD_ICRC("bad_icrc"),
    BAD_VCRC("bad_vcrc"),
    TRUNCATED_FRAME("truncated_frame"),
    QP_STATE("qp_state"),
    CM_REJECT("cm_reject"),
    MALFORMED("malformed"),
    LIMIT_REACHED("limit_reached"),
    PAIRING_UNDECIDED("pairing_undecided"),
    TIMESTAMP_INVERSION("timestamp_inversion"),
    // iWARP (issue 8)
    TCP_RETRANSMISSION("tcp_retransmission"),
    TCP_OUT_OF_ORDER("tcp_out_of_order"),
    TCP_MISSING_FROM_CAPTURE("tcp_missing_from_capture"),
    MPA_CRC_ERROR("mpa_crc_error"),
    MPA_MARKER_ERROR("mpa_marker_error"),
    MPA_INVALID_STARTUP("mpa_invalid_startup"),
    MPA_REJECT("mpa_reject"),
    MPA_RESYNC("mpa_resync"),
    DDP_VERSION("ddp_version"),
    DDP_INVALID_QUEUE("ddp_invalid_queue"),
    DDP_MSN_SEQUENCE("ddp_msn_sequence"),
    DDP_SEGMENT_SEQUENCE("ddp_segment_sequence"),
    RDMAP_VERSION("rdmap_version"),
    RDMAP_UNEXPECTED_OPCODE("rdmap_unexpected_opcode"),
    RDMAP_UNMATCHED_READ_RESPONSE("rdmap_unmatched_read_response"),
    RDMAP_TERMINATE("rdmap_terminate"),
    IWARP_MESSAGE_INCOMPLETE("iwarp_message_incomplete"),
    // capture artifacts (issue 15)
    ICRC_NOT_VERIFIABLE("icrc_not_verifiable"),
    FRAMES_CUT_SILENTLY("frames_cut_silently"),
    HEADERS_CUT("headers_cut"),
    PAD_MISALIGNED("pad_misaligned"),
    // broken connections (issue 15)
    PSN_REUSED("psn_reused"),
    MSN_INCONSISTENT("msn_inconsistent"),
    QP_STALLED("qp_stalled"),
    TORN_DOWN_WITH_OUTSTANDING("torn_down_with_outstanding"),
    // real NICs' deviations (issue 16)
    DDP_MSN_SHARED_COUNTER("ddp_msn_shared_counter"),
    RDMAP_READ_REQUEST_BYTE_ORDER("rdmap_read_request_byte_order"),
    MPA_MARKER_LAYOUT("mpa_marker_layout"),
    // vantage points disagreeing (issue 20): raised by a union of several captures, never by one
    SENDER_SIDE_DUPLICATE("sender_side_duplicate"),
    RESPONSE_NOT_DOWNSTREAM("response_not_downstream"),
    // storage protocols' operations (issue 19): raised beside the replay by io.rdmascope.ops.OperationRules
    ULP_RESPONSE_WITHOUT_COMMAND("ulp_response_without_command"),
    ULP_RESPONSE_BEFORE_CAPTURE("ulp_response_before_capture"),
    ULP_ID_REUSED("ulp_id_reused"),
    ULP_TRANSFER_OUTSIDE_BUFFERS("ulp_transfer_outside_buffers"),
    ULP_UNANSWERED_AT_TEARDOWN("ulp_unanswered_at_teardown"),
    ULP_COMMAND_AFTER_TEARDOWN("ulp_command_after_teardown"),
    ULP_UNANSWERED_AT_CAPTURE_END("ulp_unanswered_at_capture_end"),
    ULP_SEND_CREDIT_OVERRUN("ulp_send_credit_overrun"),
    ULP_CALL_CREDIT_OVERRUN("ulp_call_credit_overrun");

    private static final Map<String, ObservationKind> BY_ID = new HashMap<>();

    static {
        for (ObservationKind k : values()) {
            BY_ID.put(k.id, k);
        }
    }

    private final String id;

    ObservationKind(String id) {
        this.id = id;
    }

    /** The stable snake_case name (what JSON carries). */
    @com.fasterxml.jackson.annotation.JsonValue
    public String id() {
        return id;
    }

    /** The kind named {@code id}, or null for none. */
    public static ObservationKind ofId(String id) {
        return BY_ID.get(id);
    }

    @Override
    public String toString() {
        return id;
    }
}

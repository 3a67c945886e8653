package io.rdmascope.samples;

/**
 * What the replay engine must observe in a scenario, and the conformance rule (if any) each
 * observation raises. The rule ids are the contract with the rules catalog (issue 5): a finding
 * in a truth file names one of these ids, with its default severity.
 */
public enum Expected {
    // ---- transport behaviour, IBTA Vol. 1 ch. 9 ----
    PACKET_LOST("packet_lost", "IB-RC-PSN-001", Severity.WARNING),
    MISSING_FROM_CAPTURE("missing_from_capture", "IB-CAP-002", Severity.NOTE),
    DUPLICATE("duplicate", "IB-RC-PSN-002", Severity.WARNING),
    RETRANSMISSION("retransmission", "IB-RC-PSN-003", Severity.WARNING),
    NAK_SEQUENCE_ERROR("nak_sequence_error", "IB-RC-NAK-001", Severity.WARNING),
    NAK_INVALID_REQUEST("nak_invalid_request", "IB-RC-NAK-002", Severity.ERROR),
    NAK_REMOTE_ACCESS_ERROR("nak_remote_access_error", "IB-RC-NAK-003", Severity.ERROR),
    NAK_REMOTE_OPERATIONAL_ERROR("nak_remote_operational_error", "IB-RC-NAK-004", Severity.ERROR),
    RNR_NAK("rnr_nak", "IB-RC-RNR-001", Severity.WARNING),
    RNR_RETRY_EXHAUSTED("rnr_retry_exhausted", "IB-RC-RNR-002", Severity.ERROR),
    ACK_TIMEOUT("ack_timeout", "IB-RC-TIMEOUT-001", Severity.WARNING),
    RETRY_EXHAUSTED("retry_exhausted", "IB-RC-TIMEOUT-002", Severity.ERROR),
    MESSAGE_INCOMPLETE("message_incomplete", "IB-RC-MSG-001", Severity.WARNING),
    UNANSWERED_AT_CAPTURE_END("unanswered_at_capture_end", "IB-CAP-003", Severity.NOTE),
    UC_MESSAGE_DROPPED("uc_message_dropped", "IB-UC-001", Severity.WARNING),
    ECN_CE("ecn_ce", "IB-CC-001", Severity.NOTE),
    CNP("cnp", "IB-CC-002", Severity.NOTE),
    CM_REJECT("cm_reject", "IB-CM-001", Severity.NOTE),
    // ---- protocol violations ----
    BAD_ICRC("bad_icrc", "IB-ICRC-001", Severity.ERROR),
    BAD_VCRC("bad_vcrc", "IB-VCRC-001", Severity.ERROR),
    MISSING_FIRST("missing_first", "IB-RC-OPSEQ-001", Severity.ERROR),
    MISSING_LAST("missing_last", "IB-RC-OPSEQ-002", Severity.ERROR),
    PAYLOAD_OVER_PMTU("payload_over_pmtu", "IB-LEN-001", Severity.ERROR),
    SHORT_NON_FINAL_PACKET("short_non_final_packet", "IB-LEN-002", Severity.ERROR),
    DMA_LENGTH_MISMATCH("dma_length_mismatch", "IB-LEN-003", Severity.ERROR),
    WRONG_PAD_COUNT("wrong_pad_count", "IB-LEN-004", Severity.ERROR),
    UNMATCHED_READ_RESPONSE("unmatched_read_response", "IB-RC-MATCH-001", Severity.ERROR),
    ACK_OF_UNSENT_PSN("ack_of_unsent_psn", "IB-RC-MATCH-002", Severity.ERROR),
    PSN_REUSED("psn_reused", "IB-RC-PSN-004", Severity.ERROR),
    MSN_INCONSISTENT("msn_inconsistent", "IB-RC-MSN-001", Severity.ERROR),
    QP_STALLED("qp_stalled", "IB-RC-STALL-001", Severity.ERROR),
    TORN_DOWN_WITH_OUTSTANDING("torn_down_with_outstanding", "IB-RC-TEARDOWN-001", Severity.ERROR),
    TRUNCATED_FRAME("truncated_frame", "IB-CAP-001", Severity.WARNING),
    // ---- iWARP (issue 8): its TCP stream, MPA, DDP and RDMAP ----
    TCP_RETRANSMISSION("tcp_retransmission", "IW-TCP-001", Severity.WARNING),
    TCP_OUT_OF_ORDER("tcp_out_of_order", "IW-TCP-002", Severity.NOTE),
    TCP_MISSING_FROM_CAPTURE("tcp_missing_from_capture", "IW-CAP-001", Severity.NOTE),
    MPA_CRC_ERROR("mpa_crc_error", "IW-MPA-001", Severity.ERROR),
    MPA_MARKER_ERROR("mpa_marker_error", "IW-MPA-002", Severity.ERROR),
    MPA_INVALID_STARTUP("mpa_invalid_startup", "IW-MPA-003", Severity.ERROR),
    MPA_REJECT("mpa_reject", "IW-MPA-004", Severity.NOTE),
    DDP_INVALID_QUEUE("ddp_invalid_queue", "IW-DDP-002", Severity.ERROR),
    DDP_MSN_SEQUENCE("ddp_msn_sequence", "IW-DDP-003", Severity.ERROR),
    DDP_SEGMENT_SEQUENCE("ddp_segment_sequence", "IW-DDP-004", Severity.ERROR),
    RDMAP_UNMATCHED_READ_RESPONSE("rdmap_unmatched_read_response", "IW-RDMAP-003", Severity.ERROR),
    RDMAP_TERMINATE("rdmap_terminate", "IW-RDMAP-004", Severity.ERROR),
    IWARP_MESSAGE_INCOMPLETE("iwarp_message_incomplete", "IW-MSG-001", Severity.WARNING),
    DDP_MSN_SHARED_COUNTER("ddp_msn_shared_counter", "IW-DDP-005", Severity.WARNING),
    RDMAP_READ_REQUEST_BYTE_ORDER("rdmap_read_request_byte_order", "IW-RDMAP-005", Severity.WARNING),
    MPA_MARKER_LAYOUT("mpa_marker_layout", "IW-MPA-005", Severity.WARNING),
    // ---- observations without a finding ----
    COALESCED_ACK("coalesced_ack", null, null),
    TIMESTAMP_INVERSION("timestamp_inversion", "IB-CAP-004", Severity.NOTE),
    PSN_WRAP("psn_wrap", null, null),
    QP_STATE("qp_state", null, null),
    MPA_RESYNC("mpa_resync", null, null),
    // ---- capture artifacts told apart from traffic faults (issue 15) ----
    ICRC_NOT_VERIFIABLE("icrc_not_verifiable", "IB-CAP-007", Severity.WARNING),
    FRAMES_CUT_SILENTLY("frames_cut_silently", "IB-CAP-008", Severity.WARNING),
    HEADERS_CUT("headers_cut", "IB-CAP-006", Severity.WARNING),
    PAD_MISALIGNED("pad_misaligned", "IB-LEN-005", Severity.ERROR),
    // ---- storage protocols' operations (issue 19): what a planted UlpError is observed as ----
    ULP_RESPONSE_WITHOUT_COMMAND("ulp_response_without_command", "ULP-RSP-001", Severity.ERROR),
    ULP_ID_REUSED("ulp_id_reused", "ULP-ID-001", Severity.ERROR),
    ULP_TRANSFER_OUTSIDE_BUFFERS("ulp_transfer_outside_buffers", "ULP-DATA-001", Severity.ERROR),
    ULP_UNANSWERED_AT_TEARDOWN("ulp_unanswered_at_teardown", "ULP-UNANS-001", Severity.WARNING),
    ULP_UNANSWERED_AT_CAPTURE_END("ulp_unanswered_at_capture_end", "ULP-CAP-001", Severity.NOTE),
    ULP_SEND_CREDIT_OVERRUN("ulp_send_credit_overrun", "ULP-CREDIT-001", Severity.ERROR),
    ULP_CALL_CREDIT_OVERRUN("ulp_call_credit_overrun", "ULP-CREDIT-002", Severity.ERROR);

    public enum Severity {
        ERROR, WARNING, NOTE;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final String id;
    private final String rule;
    private final Severity severity;

    Expected(String id, String rule, Severity severity) {
        this.id = id;
        this.rule = rule;
        this.severity = severity;
    }

    /** The observation kind as truth files spell it. */
    public String id() {
        return id;
    }

    /** The rule this observation raises, or null when it raises none. */
    public String rule() {
        return rule;
    }

    public Severity severity() {
        return severity;
    }
}

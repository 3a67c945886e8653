package io.rdmascope.replay;

/** One side of a conversation: its address, its QP number once known, and what the wire showed about it. */
final class Endpoint {
    final Address address;
    /** Own QP number, -1 until the wire (CM, a response to it, a DETH) shows it. */
    int qpn = -1;
    /** RoCEv2 UDP source port of its first packet, -1 if none. */
    int udpSourcePort = -1;
    /** First PSN it sends with: from CM, else the first request seen; -1 until known. */
    int startPsn = -1;
    /** CM: retries its requests may make (transport, RNR); -1 unknown, 7 RNR means infinite. */
    int retryCount = -1;
    int rnrRetryCount = -1;
    /** CM local ACK timeout code (IBTA C9-140: T_tr = 4.096 µs · 2^code), -1 unknown. */
    int ackTimeoutCode = -1;

    /**
     * The requester's local ACK timeout: from CM, else code 14 (67 ms), perftest's default and the
     * value most stacks use.
     */
    long ackTimeoutNanos() {
        int code = ackTimeoutCode > 0 && ackTimeoutCode < 32 ? ackTimeoutCode : 14;
        return 4_096L << code;
    }

    /** {@link #qpn} boxed, made again only when the QPN changes: every message the side sends carries it. */
    private Integer qpnBoxed;

    Integer qpnBoxed() {
        Integer boxed = qpnBoxed;
        if (boxed == null || boxed != qpn) {
            boxed = qpn;
            qpnBoxed = boxed;
        }
        return boxed;
    }

    /** The address as text, made once: every message of the conversation carries it. */
    final String addressText;

    Endpoint(Address address) {
        this.address = address;
        this.addressText = address.text();
    }
}

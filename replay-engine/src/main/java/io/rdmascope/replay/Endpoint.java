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

    Endpoint(Address address) {
        this.address = address;
    }
}

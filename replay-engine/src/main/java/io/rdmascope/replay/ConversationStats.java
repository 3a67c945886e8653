package io.rdmascope.replay;

/**
 * Per-conversation counters, indexed by side (0 or 1): what each side sent as requester, how its
 * messages fared, and the congestion signals on its packets. Fixed size per conversation.
 */
final class ConversationStats {
    final long[] packets = new long[2];
    /** Request packets each side sent (SEND/WRITE/READ requests, atomics), retransmissions included. */
    final long[] requestPackets = new long[2];
    final long[] payloadBytes = new long[2];
    final long[] messages = new long[2];
    final long[] messageBytes = new long[2];
    final long[] retransmissions = new long[2];
    final long[] duplicates = new long[2];
    final long[] timeouts = new long[2];
    final long[] lost = new long[2];
    /** Of those, lost after the capture point (captured, then NAKed as missing at the responder). */
    final long[] lostAfterCapture = new long[2];
    final long[] naks = new long[2];
    final long[] rnrNaks = new long[2];
    final long[] rnrWaitNanos = new long[2];
    final long[] ceMarks = new long[2];
    /** CNPs received by side s (sent by the other side's NIC about s's packets). */
    final long[] cnps = new long[2];
    private final long[] lastCnpNanos = {-1, -1};
    final long[] cnpGapMinNanos = {Long.MAX_VALUE, Long.MAX_VALUE};
    final long[] cnpGapSumNanos = new long[2];
    long firstNanos = -1;
    long lastNanos;
    /**
     * Per message kind, by ordinal, made with the kind's first completion: an array read where an
     * {@code EnumMap} took a lookup and a lambda per completed message; in ordinal order, as the map was.
     */
    final LatencyHistogram[] latencyByKind = new LatencyHistogram[MessageKind.values().length];
    final TimeSeries goodput = new TimeSeries();

    /**
     * Every completed message's latency, whatever its kind: made from the per-kind histograms when asked
     * ({@link LatencyHistogram#merged}), so that a completed message updates one histogram, not two.
     */
    LatencyHistogram latency() {
        java.util.List<LatencyHistogram> parts = new java.util.ArrayList<>();
        for (LatencyHistogram h : latencyByKind) {
            if (h != null) {
                parts.add(h);
            }
        }
        return LatencyHistogram.merged(parts);
    }

    void packet(int side, long timeNanos, long payload, boolean request) {
        packets[side]++;
        if (request) {
            requestPackets[side]++;
        }
        payloadBytes[side] += payload;
        if (firstNanos < 0) {
            firstNanos = timeNanos;
        }
        lastNanos = Math.max(lastNanos, timeNanos);
    }

    /** Activity that is not a transport packet (a CM MAD) still spans the conversation's lifetime. */
    void touch(long timeNanos) {
        if (firstNanos < 0) {
            firstNanos = timeNanos;
        }
        lastNanos = Math.max(lastNanos, timeNanos);
    }

    /** Completions of this conversation waiting in the shared {@link CompletionLog}: its first and last entry, -1 none. */
    int pendingHead = -1;
    int pendingTail = -1;

    /** A completed (or ended) message of side {@code side}'s requester, of kind ordinal {@code kind}: counted, with its latency and goodput. */
    void add(int side, int kind, long bytes, boolean hasCompletion, long completedAtNanos, long latencyNanos) {
        messages[side]++;
        messageBytes[side] += bytes;
        if (hasCompletion) {
            goodput.add(completedAtNanos, bytes);
            LatencyHistogram byKind = latencyByKind[kind];
            if (byKind == null) {
                byKind = new LatencyHistogram();
                latencyByKind[kind] = byKind;
            }
            byKind.add(latencyNanos);
        }
    }

    void retransmissions(int side) {
        retransmissions[side]++;
    }

    void duplicates(int side) {
        duplicates[side]++;
    }

    void timeouts(int side) {
        timeouts[side]++;
    }

    void lost(int side) {
        lost[side]++;
    }

    void naks(int side) {
        naks[side]++;
    }

    void rnrNak(int side, long timerNanos) {
        rnrNaks[side]++;
        rnrWaitNanos[side] += timerNanos;
    }

    void ceMark(int side) {
        ceMarks[side]++;
    }

    void cnp(int side, long timeNanos) {
        cnps[side]++;
        if (lastCnpNanos[side] >= 0) {
            long gap = timeNanos - lastCnpNanos[side];
            cnpGapMinNanos[side] = Math.min(cnpGapMinNanos[side], gap);
            cnpGapSumNanos[side] += gap;
        }
        lastCnpNanos[side] = timeNanos;
    }
}

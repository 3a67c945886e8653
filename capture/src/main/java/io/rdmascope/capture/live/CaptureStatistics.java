package io.rdmascope.capture.live;

/**
 * What a live capture got and lost. Losses are counted at three places and never merged, because
 * each has a different cure: the kernel's buffer ({@code -B}), the NIC or driver, and the queue
 * between rdmascope's capture thread and its decoder/writer.
 *
 * @param captured            frames rdmascope read from libpcap
 * @param delivered           of those, frames handed to the consumer (the rest overflowed the queue)
 * @param droppedByQueue      frames read from libpcap but dropped because the consumer's queue was full
 * @param pcapReceived        libpcap's {@code ps_recv}: frames that passed the filter in the kernel,
 *                            dropped ones included (-1 when libpcap gave no statistics)
 * @param droppedByKernel     libpcap's {@code ps_drop}: frames that passed the filter but found the
 *                            kernel buffer full (-1 when unknown)
 * @param droppedByInterface  libpcap's {@code ps_ifdrop}: frames the interface or driver dropped,
 *                            filter or not, since the capture started (-1 when unknown: on Linux
 *                            libpcap counts them only in promiscuous mode, never on {@code any})
 * @param dropCountsReliable  false where libpcap's counts mean nothing: its RDMA sniffer always
 *                            reports 0 drops
 */
public record CaptureStatistics(long captured, long delivered, long droppedByQueue, long pcapReceived,
                                long droppedByKernel, long droppedByInterface, boolean dropCountsReliable) {

    /** Everything known to be lost: kernel, interface and queue drops (unknown counts as 0). */
    public long totalDropped() {
        return Math.max(0, droppedByKernel) + Math.max(0, droppedByInterface) + droppedByQueue;
    }

    /** True when some loss is known. */
    public boolean anyDropped() {
        return totalDropped() > 0;
    }
}

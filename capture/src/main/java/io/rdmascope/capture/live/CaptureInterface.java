package io.rdmascope.capture.live;

import java.util.List;

/**
 * One interface libpcap offers for capture, as {@code pcap_findalldevs} describes it.
 *
 * @param index       1-based position in libpcap's list (what {@code -i N} selects, as in tshark)
 * @param name        the name to capture on ({@code eth0}, {@code lo}, {@code any}, {@code mlx5_0})
 * @param description libpcap's description, or null
 * @param addresses   IPv4/IPv6 addresses, textual, in libpcap's order
 * @param loopback    a loopback interface
 * @param up          administratively up
 * @param running     operationally running (carrier)
 */
public record CaptureInterface(int index, String name, String description, List<String> addresses,
                               boolean loopback, boolean up, boolean running) {

    /** libpcap's description of the Linux RDMA sniffer devices (pcap-rdmasniff.c). */
    public static final String RDMA_SNIFFER_DESCRIPTION = "RDMA sniffer";

    public CaptureInterface {
        addresses = List.copyOf(addresses);
    }

    /**
     * An RDMA sniffer device ({@code mlx5_0} and the like, offered when libpcap was built with
     * rdma-core): libpcap reports no drop counts for these, whatever is lost.
     */
    public boolean rdmaSniffer() {
        return RDMA_SNIFFER_DESCRIPTION.equals(description);
    }
}

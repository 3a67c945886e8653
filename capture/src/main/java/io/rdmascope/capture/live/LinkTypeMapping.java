package io.rdmascope.capture.live;

import com.sun.jna.Platform;

/**
 * libpcap hands out DLT_ values; capture files record LINKTYPE_ values. They are equal except for a
 * few historical DLTs whose numbers differ between platforms (libpcap's pcap-common.c maps them
 * the same way when it writes a file). The one a Linux capture meets is DLT_RAW (12 on Linux, 14 on
 * OpenBSD, where 12 is DLT_LOOP): tun devices and WireGuard interfaces deliver raw IP.
 */
final class LinkTypeMapping {
    private static final int LINKTYPE_RAW = 101;
    private static final int LINKTYPE_ATM_RFC1483 = 100;
    private static final int LINKTYPE_LOOP = 108;

    private LinkTypeMapping() {
    }

    static int linkType(int dlt) {
        return switch (dlt) {
            case 11 -> LINKTYPE_ATM_RFC1483;
            case 12 -> Platform.isOpenBSD() ? LINKTYPE_LOOP : LINKTYPE_RAW;
            case 14 -> Platform.isOpenBSD() ? LINKTYPE_RAW : dlt;
            default -> dlt;
        };
    }
}

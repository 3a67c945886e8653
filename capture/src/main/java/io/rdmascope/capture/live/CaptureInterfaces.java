package io.rdmascope.capture.live;

import org.pcap4j.core.PcapAddress;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.Pcaps;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/** The interfaces libpcap can capture on, and whether this process may capture on each. */
public final class CaptureInterfaces {

    private CaptureInterfaces() {
    }

    /** Every interface {@code pcap_findalldevs} reports, in its order, numbered from 1. */
    public static List<CaptureInterface> list() throws LiveCaptureException {
        LibPcap.load();
        List<PcapNetworkInterface> devices;
        try {
            devices = Pcaps.findAllDevs();
        } catch (PcapNativeException e) {
            throw new LiveCaptureException(LiveCaptureException.Reason.FAILED,
                    "libpcap cannot list interfaces: " + PcapErrors.clean(e.getMessage()), e);
        }
        List<CaptureInterface> out = new ArrayList<>(devices.size());
        for (PcapNetworkInterface d : devices) {
            List<String> addresses = new ArrayList<>();
            for (PcapAddress a : d.getAddresses()) {
                InetAddress address = a.getAddress();
                if (address != null) {
                    addresses.add(text(address));
                }
            }
            out.add(new CaptureInterface(out.size() + 1, d.getName(), d.getDescription(), addresses,
                    d.isLoopBack(), d.isUp(), d.isRunning()));
        }
        return out;
    }

    /**
     * The interface called {@code nameOrIndex}, or numbered so in {@link #list()} (tshark's
     * {@code -i 2}).
     *
     * @throws LiveCaptureException {@link LiveCaptureException.Reason#NO_SUCH_INTERFACE}, listing the valid names
     */
    public static CaptureInterface resolve(String nameOrIndex) throws LiveCaptureException {
        List<CaptureInterface> all = list();
        for (CaptureInterface i : all) {
            if (i.name().equals(nameOrIndex)) {
                return i;
            }
        }
        if (nameOrIndex.matches("[0-9]{1,4}")) {
            int index = Integer.parseInt(nameOrIndex);
            if (index >= 1 && index <= all.size()) {
                return all.get(index - 1);
            }
        }
        throw PcapErrors.noSuchInterface(nameOrIndex, all.stream().map(CaptureInterface::name).toList());
    }

    /**
     * Opens {@code iface} briefly (no promiscuous mode, a small buffer) to learn whether capture is
     * permitted and what link type it delivers.
     */
    public static CaptureAccess probe(String iface) throws LiveCaptureException {
        LibPcap.load();
        PcapHandle handle;
        try {
            handle = new PcapHandle.Builder(iface).snaplen(128).timeoutMillis(1).bufferSize(256 * 1024)
                    .promiscuousMode(PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS).build();
        } catch (PcapNativeException e) {
            return CaptureAccess.refused(PcapErrors.openFailed(iface, e.getReturnCode(), e.getMessage(), List.of()));
        }
        try {
            int dlt = handle.getDlt().value();
            return CaptureAccess.allowed(LinkTypeMapping.linkType(dlt), linkTypeName(dlt));
        } finally {
            handle.close();
        }
    }

    /** libpcap's short name of a DLT ({@code EN10MB}), or its number when libpcap has none. */
    static String linkTypeName(int dlt) {
        try {
            String name = Pcaps.dataLinkValToName(dlt);
            return name == null ? Integer.toString(dlt) : name;
        } catch (PcapNativeException e) {
            return Integer.toString(dlt);
        }
    }

    private static String text(InetAddress address) {
        String s = address.getHostAddress();
        if (address instanceof Inet6Address) {
            // Java prints every zero group (fe80:0:0:0:...); show the compressed form ip(8) shows.
            s = compress(s);
        }
        return s;
    }

    /** RFC 5952 text of a Java-formatted IPv6 address: the longest run of zero groups becomes {@code ::}. */
    static String compress(String javaText) {
        String zone = "";
        int percent = javaText.indexOf('%');
        String addr = javaText;
        if (percent >= 0) {
            zone = javaText.substring(percent);
            addr = javaText.substring(0, percent);
        }
        String[] groups = addr.split(":");
        if (groups.length != 8) {
            return javaText;
        }
        int bestStart = -1;
        int bestLength = 0;
        for (int i = 0; i < 8; ) {
            if (groups[i].equals("0")) {
                int j = i;
                while (j < 8 && groups[j].equals("0")) {
                    j++;
                }
                if (j - i > bestLength) {
                    bestStart = i;
                    bestLength = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        if (bestLength < 2) {
            return String.join(":", groups) + zone;
        }
        String head = String.join(":", java.util.Arrays.copyOfRange(groups, 0, bestStart));
        String tail = String.join(":", java.util.Arrays.copyOfRange(groups, bestStart + bestLength, 8));
        return head + "::" + tail + zone;
    }
}

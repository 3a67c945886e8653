package io.rdmascope.dissect.stream;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.proto.ip.Ip;

/**
 * The two endpoints of a TCP connection, order-free: endpoint "low" is the one with the smaller
 * (address, port), so both directions find the same key. Addresses are IPv4 (in {@code lo}) or IPv6
 * (hi, lo). One mutable instance serves as the lookup probe frame after frame; {@link #copy} makes
 * the immutable key a table stores.
 */
public final class ConnectionKey {
    private int family;
    private long lowHi;
    private long lowLo;
    private long highHi;
    private long highLo;
    private int lowPort;
    private int highPort;
    /** Whether the segment this probe was set from goes from the low endpoint to the high one. */
    private boolean fromLow;

    /**
     * Sets this probe from the IP header enclosing TCP layer {@code tcpLayer} of {@code d}; false
     * when there is none (or it was cut short).
     */
    public boolean set(Dissection d, int tcpLayer) {
        int ip = Ip.enclosingIpLayer(d, tcpLayer);
        if (ip < 0) {
            return false;
        }
        int at = d.layerStart(ip);
        long srcHi;
        long srcLo;
        long dstHi;
        long dstLo;
        if (d.layerType(ip) == Ip.IPV4) {
            if (d.layerLength(ip) < 20) {
                return false;
            }
            family = 4;
            srcHi = 0;
            dstHi = 0;
            srcLo = d.u32(at + 12);
            dstLo = d.u32(at + 16);
        } else {
            if (d.layerLength(ip) < 40) {
                return false;
            }
            family = 6;
            srcHi = d.buffer().getLong(d.base() + at + 8);
            srcLo = d.buffer().getLong(d.base() + at + 16);
            dstHi = d.buffer().getLong(d.base() + at + 24);
            dstLo = d.buffer().getLong(d.base() + at + 32);
        }
        int tcp = d.layerStart(tcpLayer);
        int srcPort = d.u16(tcp);
        int dstPort = d.u16(tcp + 2);
        int c = Long.compareUnsigned(srcHi, dstHi);
        if (c == 0) {
            c = Long.compareUnsigned(srcLo, dstLo);
        }
        if (c == 0) {
            c = Integer.compare(srcPort, dstPort);
        }
        fromLow = c <= 0;
        if (fromLow) {
            lowHi = srcHi;
            lowLo = srcLo;
            lowPort = srcPort;
            highHi = dstHi;
            highLo = dstLo;
            highPort = dstPort;
        } else {
            lowHi = dstHi;
            lowLo = dstLo;
            lowPort = dstPort;
            highHi = srcHi;
            highLo = srcLo;
            highPort = srcPort;
        }
        return true;
    }

    /** An immutable copy, for storing. */
    public ConnectionKey copy() {
        ConnectionKey k = new ConnectionKey();
        k.family = family;
        k.lowHi = lowHi;
        k.lowLo = lowLo;
        k.highHi = highHi;
        k.highLo = highLo;
        k.lowPort = lowPort;
        k.highPort = highPort;
        k.fromLow = fromLow;
        return k;
    }

    /** Whether the segment the probe was last set from travels from the low endpoint to the high one. */
    public boolean fromLow() {
        return fromLow;
    }

    /** 4 or 6. */
    public int family() {
        return family;
    }

    /** Address of endpoint {@code low ? low : high}: IPv4 in the low word, IPv6 as (hi, lo). */
    public long addressHi(boolean low) {
        return low ? lowHi : highHi;
    }

    public long addressLo(boolean low) {
        return low ? lowLo : highLo;
    }

    public int port(boolean low) {
        return low ? lowPort : highPort;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnectionKey k && k.family == family && k.lowHi == lowHi && k.lowLo == lowLo
                && k.highHi == highHi && k.highLo == highLo && k.lowPort == lowPort && k.highPort == highPort;
    }

    @Override
    public int hashCode() {
        long h = lowLo * 31 + highLo;
        h = h * 31 + lowHi;
        h = h * 31 + highHi;
        h = h * 31 + ((long) lowPort << 16 | highPort);
        return (int) (h ^ (h >>> 32));
    }
}

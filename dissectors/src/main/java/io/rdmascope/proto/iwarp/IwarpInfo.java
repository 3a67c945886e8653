package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.TcpReassembler;

/**
 * The packet-list Protocol and Info of a frame of an iWARP connection, in Wireshark 4.0's words:
 * "MPA" and "41442 > 9999 MPA Request Frame" for the startup frames, "DDP/RDMA" and
 * "41442 > 9999 Send [last DDP segment]" for an FPDU. Where Wireshark shows only the last PDU of a
 * frame that completes several, every PDU is listed, joined by ", "; a segment that completes none
 * reads as TCP with "[TCP segment of a reassembled PDU]", as Wireshark marks it.
 */
public final class IwarpInfo {
    /** The two columns. */
    public record Summary(String protocol, String info) {
    }

    private IwarpInfo() {
    }

    /** The columns of the frame just dissected into {@code d}, or null when it is not an iWARP connection's. */
    public static Summary of(Dissection d, String tcpInfo) {
        IwarpFrame f = IwarpFrame.of(d);
        if (f == null) {
            return null;
        }
        IwarpConnection c = f.connection();
        int from = c.port(f.direction());
        int to = c.port(1 - f.direction());
        StringBuilder sb = new StringBuilder(64);
        boolean ddp = false;
        boolean mpa = false;
        for (int i = 0; i < f.pduCount(); i++) {
            IwarpPdu p = f.pdu(i);
            if (p.layer() < 0) {
                continue;
            }
            sb.append(sb.length() == 0 ? "" : ", ");
            if (p.direction() != f.direction()) {
                // Bytes of the other direction freed by this frame's acknowledgement (a capture gap).
                sb.append(c.port(p.direction())).append(" > ").append(c.port(1 - p.direction())).append(' ');
            } else if (i == firstShown(f)) {
                sb.append(from).append(" > ").append(to).append(' ');
            }
            switch (p.kind()) {
                case REQUEST -> {
                    mpa = true;
                    sb.append("MPA Request Frame");
                }
                case REPLY -> {
                    mpa = true;
                    sb.append("MPA Reply Frame");
                    if ((p.flags() & Mpa.FLAG_REJECT) != 0) {
                        sb.append(" (connection rejected)");
                    }
                }
                default -> {
                    if (p.ulpduLength() < 2) {
                        mpa = true;
                        sb.append("MPA FPDU");
                    } else {
                        ddp = true;
                        String name = DdpRdmap.OPCODE_NAMES.nameOf(p.opcode());
                        sb.append(name == null ? "Unknown " + p.opcode() : name)
                                .append(p.last() ? " [last DDP segment]" : " [more DDP segments]");
                    }
                    if (p.crcStatus() == Mpa.STATUS_BAD) {
                        sb.append(" [CRC bad]");
                    }
                    if (p.badMarkers() > 0) {
                        sb.append(" [marker bad]");
                    }
                }
            }
        }
        if (sb.length() == 0) {
            String note = switch (f.arrival()) {
                case RETRANSMISSION -> " [TCP Retransmission]";
                case EMPTY, UNSYNCED -> "";
                default -> " [TCP segment of a reassembled PDU]";
            };
            return new Summary("TCP", tcpInfo + note);
        }
        if (f.arrival() == TcpReassembler.Arrival.FILLED_AFTER_LOSS
                || f.arrival() == TcpReassembler.Arrival.PARTIAL_RETRANSMISSION) {
            sb.append(" [TCP Retransmission]");
        }
        return new Summary(ddp ? "DDP/RDMA" : mpa ? "MPA" : "TCP", sb.toString());
    }

    private static int firstShown(IwarpFrame f) {
        for (int i = 0; i < f.pduCount(); i++) {
            if (f.pdu(i).layer() >= 0 && f.pdu(i).direction() == f.direction()) {
                return i;
            }
        }
        return -1;
    }
}

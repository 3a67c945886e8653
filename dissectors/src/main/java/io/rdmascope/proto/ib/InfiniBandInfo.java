package io.rdmascope.proto.ib;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.proto.mad.Mad;
import io.rdmascope.proto.mad.MadInfo;

/**
 * The Info column of an InfiniBand frame (RoCEv2, RoCEv1, native), e.g.
 * {@code RC RDMA WRITE First QP=0x000011 PSN=42}, with a management datagram's words joined in
 * ({@link MadInfo}).
 */
final class InfiniBandInfo {
    private InfiniBandInfo() {
    }

    static String rdmaInfo(Dissection d, RdmaContext r) {
        int mad = d.find(Mad.HEADER);
        int madClass = -1;
        if (mad >= 0 && d.layerLength(mad) == Mad.MAD_SIZE) {
            madClass = (int) Mad.MGMT_CLASS.read(d.buffer(), d.layerAt(mad));
            String whole = MadInfo.wholeInfo(madClass, (int) Mad.ATTRIBUTE_ID.read(d.buffer(), d.layerAt(mad)));
            if (whole != null) {
                return withCrcFlags(whole, d, r);
            }
        }
        // DC's opcodes are RD's; the dissector decided which this packet is (docs/dc.md), as tshark's Info says DC
        Opcode op = r.dynamicallyConnected ? Opcodes.dc(r.opcode, r.dcConnect) : Opcodes.of(r.opcode);
        // An SMP/SA label adds up to 52 characters (" SubnAdmGetTableResp(LinkSpeedWidthPairsTableRecord)"):
        // room for it from the start, so that the builder does not regrow.
        StringBuilder sb = new StringBuilder(madClass >= 0 ? 128 : 64);
        sb.append(op.shortName());
        if (d.layerLength(r.bthLayer) == 12) {
            sb.append(" QP=0x");
            String qp = Integer.toHexString(d.u24(r.bthStart + 5));
            sb.append("000000", qp.length(), 6).append(qp);
            sb.append(" PSN=").append(d.u24(r.bthStart + 9));
            int flags = d.u8(r.bthStart + 4);
            if ((flags & 0x80) != 0) {
                sb.append(" FECN");
            }
            if ((flags & 0x40) != 0) {
                sb.append(" BECN");
            }
        }
        int aeth = d.find(InfiniBand.AETH);
        if (aeth >= 0 && d.layerLength(aeth) == 4) {
            int syndrome = d.u8(d.layerStart(aeth));
            int value = syndrome & 0x1F;
            switch ((syndrome >> 5) & 3) {
                case InfiniBand.AETH_ACK -> sb.append(" ACK");
                case InfiniBand.AETH_RNR_NAK -> sb.append(" RNR NAK timer=")
                        .append(Aeth.RNR_TIMER_NAMES.nameOf(value));
                case InfiniBand.AETH_NAK -> {
                    String name = Aeth.NAK_CODE_NAMES.nameOf(value);
                    sb.append(" NAK ").append(name == null ? "reserved code " + value : name);
                }
                default -> sb.append(" reserved syndrome");
            }
            sb.append(" MSN=").append(d.u24(d.layerStart(aeth) + 1));
        }
        int reth = d.find(InfiniBand.RETH);
        if (reth >= 0 && d.layerLength(reth) == 16) {
            sb.append(" len=").append(d.u32(d.layerStart(reth) + 12));
        }
        if (madClass >= 0) {
            MadInfo.appendSubnetText(sb, d, mad, madClass);
        }
        if (r.icrcOffset >= 0 && Crcs.icrcStatus(d) == Crcs.STATUS_BAD) {
            sb.append(" [ICRC bad]");
        }
        if (r.vcrcOffset >= 0 && Crcs.vcrcStatus(d) == Crcs.STATUS_BAD) {
            sb.append(" [VCRC bad]");
        }
        return sb.toString();
    }

    /** {@code info} with the CRC verdicts {@link #rdmaInfo} adds; the same string when both are good. */
    private static String withCrcFlags(String info, Dissection d, RdmaContext r) {
        boolean icrcBad = r.icrcOffset >= 0 && Crcs.icrcStatus(d) == Crcs.STATUS_BAD;
        boolean vcrcBad = r.vcrcOffset >= 0 && Crcs.vcrcStatus(d) == Crcs.STATUS_BAD;
        if (!icrcBad && !vcrcBad) {
            return info;
        }
        return info + (icrcBad ? " [ICRC bad]" : "") + (vcrcBad ? " [VCRC bad]" : "");
    }
}

package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.ReassemblyFields;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.field.ValueNames;

import java.util.List;

/**
 * SMB Direct ([MS-SMBD], the RDMA transport of SMB 3) and the SMB2 header it carries: the field
 * declarations, with Wireshark 4.0's abbreviations ({@code smb_direct.*} from packet-smb-direct.c,
 * {@code smb2.*} from packet-smb2.c). Everything is little-endian ([MS-SMBD] §2.2, [MS-SMB2] §2.2.1).
 *
 * <p>Three SMB Direct messages share field names at different offsets (CreditsRequested is at byte 6
 * of a Negotiate Request, 8 of a Negotiate Response and 0 of a Data Transfer message), while the
 * field registry keeps one {@link Field} per name read at one offset. Those shared fields are
 * therefore declared as computed fields that read the offset of the message their layer holds.
 */
public final class SmbDirect {
    public static final Protocol PROTOCOL = new Protocol("smb_direct", "SMB-Direct (SMB RDMA Transport)");
    public static final Protocol SMB2_PROTOCOL = new Protocol("smb2", "SMB2 (Server Message Block Protocol version 2)");

    /** The port SMB Direct listens on ([MS-SMBD] §1.9: TCP port 5445 for iWARP, the RDMA-CM port for IB/RoCE). */
    public static final int PORT = 5445;
    /** SMB Direct version 1.0 ([MS-SMBD] §2.2.1), the only one defined. */
    public static final int VERSION_1 = 0x0100;
    public static final int NEGOTIATE_REQUEST_SIZE = 20;
    public static final int NEGOTIATE_RESPONSE_SIZE = 32;
    /** The fixed part of a Data Transfer message ([MS-SMBD] §2.2.3); the data starts 8-byte aligned at 24. */
    public static final int DATA_HEADER_SIZE = 20;
    public static final int DATA_OFFSET_ALIGNED = 24;
    public static final int SMB2_HEADER_SIZE = 64;
    /** "\xFESMB" as a little-endian 32-bit value ([MS-SMB2] §2.2.1). */
    public static final long SMB2_PROTOCOL_ID = 0x424D53FEL;

    // ---- Shared names: one computed field each, reading the offset of its layer's message ----
    public static final Field VERSION_MIN = le16("smb_direct.version.min", "MinVersion", 0).hex();
    public static final Field VERSION_MAX = le16("smb_direct.version.max", "MaxVersion", 2).hex();
    public static final Field CREDITS_REQUESTED = shared("smb_direct.credits.requested", "CreditsRequested",
            FieldType.UINT16, 6, 8, 0);
    public static final Field CREDITS_GRANTED = shared("smb_direct.credits.granted", "CreditsGranted",
            FieldType.UINT16, -1, 10, 2);
    public static final Field PREFERRED_SEND_SIZE = shared("smb_direct.preferred_send_size", "PreferredSendSize",
            FieldType.UINT32, 8, 20, -1);
    public static final Field MAX_RECEIVE_SIZE = shared("smb_direct.max_receive_size", "MaxReceiveSize",
            FieldType.UINT32, 12, 24, -1);
    public static final Field MAX_FRAGMENTED_SIZE = shared("smb_direct.max_fragmented_size", "MaxFragmentedSize",
            FieldType.UINT32, 16, 28, -1);

    // ---- Negotiate Request ([MS-SMBD] §2.2.1) ----
    public static final HeaderType NEGOTIATE_REQUEST = HeaderType.group(PROTOCOL, "smb_direct.negotiate_request",
            "NegotiateRequest", VERSION_MIN, VERSION_MAX, CREDITS_REQUESTED, PREFERRED_SEND_SIZE, MAX_RECEIVE_SIZE,
            MAX_FRAGMENTED_SIZE);

    // ---- Negotiate Response ([MS-SMBD] §2.2.2) ----
    public static final Field VERSION_NEGOTIATED = le16("smb_direct.version.negotiated", "NegotiatedVersion", 4).hex();
    public static final Field STATUS = le32("smb_direct.status", "Status", 12).hex();
    public static final Field MAX_READ_WRITE_SIZE = le32("smb_direct.max_read_write_size", "MaxReadWriteSize", 16);
    public static final HeaderType NEGOTIATE_RESPONSE = HeaderType.group(PROTOCOL, "smb_direct.negotiate_response",
            "NegotiateResponse", VERSION_MIN, VERSION_MAX, VERSION_NEGOTIATED, CREDITS_REQUESTED, CREDITS_GRANTED,
            STATUS, MAX_READ_WRITE_SIZE, PREFERRED_SEND_SIZE, MAX_RECEIVE_SIZE, MAX_FRAGMENTED_SIZE);

    // ---- Data Transfer message ([MS-SMBD] §2.2.3) ----
    /** SMB_DIRECT_RESPONSE_REQUESTED ([MS-SMBD] §2.2.3): the peer is asked to grant credits promptly. */
    public static final int FLAG_RESPONSE_REQUESTED = 0x0001;
    public static final Field FLAGS = le16("smb_direct.flags", "Flags", 4).hex();
    public static final Field FLAG_RESPONSE_REQUESTED_BIT = Field.bool("smb_direct.flags.response_requested",
            "ResponseRequested", 4, 2, FLAG_RESPONSE_REQUESTED).littleEndian();
    public static final Field REMAINING_LENGTH = le32("smb_direct.remaining_length", "RemainingLength", 8);
    public static final Field DATA_OFFSET = le32("smb_direct.data_offset", "DataOffset", 12);
    public static final Field DATA_LENGTH = le32("smb_direct.data_length", "DataLength", 16);
    public static final HeaderType DATA_MESSAGE = HeaderType.group(PROTOCOL, "smb_direct.data_message", "DataMessage",
            CREDITS_REQUESTED, CREDITS_GRANTED, FLAGS, FLAG_RESPONSE_REQUESTED_BIT, REMAINING_LENGTH, DATA_OFFSET,
            DATA_LENGTH);

    // ---- SMB2 packet header ([MS-SMB2] §2.2.1.2, the synchronous form) ----
    /** SMB2_FLAGS_SERVER_TO_REDIR ([MS-SMB2] §2.2.1.2): the message is a response. */
    public static final int SMB2_FLAG_RESPONSE = 0x00000001;
    public static final ValueNames SMB2_COMMAND_NAMES = ValueNames.of(0x00, "Negotiate Protocol",
            0x01, "Session Setup", 0x02, "Session Logoff", 0x03, "Tree Connect", 0x04, "Tree Disconnect",
            0x05, "Create", 0x06, "Close", 0x07, "Flush", 0x08, "Read", 0x09, "Write", 0x0A, "Lock", 0x0B, "Ioctl",
            0x0C, "Cancel", 0x0D, "KeepAlive", 0x0E, "Find", 0x0F, "Notify", 0x10, "GetInfo", 0x11, "SetInfo",
            0x12, "Break");
    /** [MS-SMB2] §3.3.4.6, §3.3.4.7: the MessageId of an oplock or lease break, which answers no request. */
    static final long SMB2_UNSOLICITED_MESSAGE_ID = -1L;
    private static final Field.Presence SMB2_RESPONSE = (d, l) -> isSmb2Response(d, d.layerStart(l));

    /** Whether the SMB2 header at frame offset {@code header} is a response's (Flags, byte 16). */
    static boolean isSmb2Response(Dissection d, int header) {
        return (d.u32le(header + 16) & SMB2_FLAG_RESPONSE) != 0;
    }

    /** The MessageId of the SMB2 header at frame offset {@code header} (bytes 24-31, little-endian). */
    static long smb2MessageId(Dissection d, int header) {
        return d.u32le(header + 24) | d.u32le(header + 28) << 32;
    }
    /** Wireshark shows the protocol ID as the bytes read big-endian (0xfe534d42). */
    public static final Field SMB2_PROTOCOL_ID_FIELD = Field.uint32("smb2.protocol_id", "ProtocolId", 0).hex();
    public static final Field SMB2_HEADER_LEN = le16("smb2.header_len", "Header Length", 4);
    public static final Field SMB2_CREDIT_CHARGE = le16("smb2.credit.charge", "Credit Charge", 6);
    /** The status of a response; a request's bytes 8-11 are the channel sequence and reserved in SMB 3.x. */
    public static final Field SMB2_NT_STATUS = le32("smb2.nt_status", "NT Status", 8).hex().presentWhen(SMB2_RESPONSE);
    public static final Field SMB2_COMMAND = le16("smb2.cmd", "Command", 12).names(SMB2_COMMAND_NAMES);
    public static final Field SMB2_CREDITS_REQUESTED = le16("smb2.credits.requested", "Credits requested", 14)
            .presentWhen((d, l) -> !SMB2_RESPONSE.test(d, l));
    public static final Field SMB2_CREDITS_GRANTED = le16("smb2.credits.granted", "Credits granted", 14)
            .presentWhen(SMB2_RESPONSE);
    public static final Field SMB2_FLAGS = le32("smb2.flags", "Flags", 16).hex();
    public static final Field SMB2_FLAG_RESPONSE_BIT = Field.bool("smb2.flags.response", "Response", 16, 4,
            SMB2_FLAG_RESPONSE).littleEndian();
    public static final Field SMB2_CHAIN_OFFSET = le32("smb2.chain_offset", "Chain Offset", 20).hex();
    public static final Field SMB2_MSG_ID = Field.uint64("smb2.msg_id", "Message ID", 24).littleEndian();
    public static final Field SMB2_PID = le32("smb2.pid", "Process Id", 32).hex();
    public static final Field SMB2_TID = le32("smb2.tid", "Tree Id", 36).hex();
    public static final Field SMB2_SESID = Field.uint64("smb2.sesid", "Session Id", 40).littleEndian().hex();
    public static final Field SMB2_SIGNATURE = Field.bytes("smb2.signature", "Signature", 48, 16);
    public static final HeaderType SMB2_HEADER = HeaderType.protocolHeader(SMB2_PROTOCOL, SMB2_PROTOCOL_ID_FIELD,
            SMB2_HEADER_LEN, SMB2_CREDIT_CHARGE, SMB2_NT_STATUS, SMB2_COMMAND, SMB2_CREDITS_REQUESTED,
            SMB2_CREDITS_GRANTED, SMB2_FLAGS, SMB2_FLAG_RESPONSE_BIT, SMB2_CHAIN_OFFSET, SMB2_MSG_ID, SMB2_PID,
            SMB2_TID, SMB2_SESID, SMB2_SIGNATURE);

    // ---- Fragments of one SMB2 message ([MS-SMBD] §3.1.5.1: RemainingLength counts what follows) ----
    /** Fragment frames listed at most; more fragments than this are not shown reassembled. */
    static final int MAX_FRAGMENTS = 1_024;
    /** Bytes kept per message being reassembled ([MS-SMBD] §3.1.1.1: MaxFragmentedSize is at least 128 KiB). */
    static final int MAX_REASSEMBLED = 1 << 20;
    /** The fragments' frames and the reassembled message: a layer over the bytes past the frame, with the SMB2 header after it. */
    static final ReassemblyFields REASSEMBLY = ReassemblyFields.of(PROTOCOL, "smb_direct", MAX_FRAGMENTS,
            new ReassemblyFields.Labels("SMB Direct Fragment", "Reassembled SMB Direct Fragments",
                    "Reassembled SMB Direct length", "Reassembled SMB Direct data", "Reassembled SMB Direct"));
    public static final HeaderType FRAGMENTS = REASSEMBLY.fragments();
    public static final HeaderType REASSEMBLED = REASSEMBLY.reassembled();

    public static final List<HeaderType> HEADERS = List.of(NEGOTIATE_REQUEST, NEGOTIATE_RESPONSE, DATA_MESSAGE,
            FRAGMENTS, REASSEMBLED, SMB2_HEADER);

    private SmbDirect() {
    }

    private static Field le16(String abbrev, String name, int offset) {
        return Field.uint16(abbrev, name, offset).littleEndian();
    }

    private static Field le32(String abbrev, String name, int offset) {
        return Field.uint32(abbrev, name, offset).littleEndian();
    }

    /**
     * A field that Wireshark names once but that sits at a different offset in each message: at
     * {@code inRequest} of a Negotiate Request, {@code inResponse} of a Negotiate Response and
     * {@code inData} of a Data Transfer message (-1: not in that message).
     */
    private static Field shared(String abbrev, String name, FieldType type, int inRequest, int inResponse,
                                int inData) {
        return Field.computed(abbrev, name, type, Base.DEC, new Field.Computation() {
            @Override
            public long value(Dissection d, int layer) {
                int at = d.layerStart(layer) + offsetIn(d.layerType(layer));
                return type == FieldType.UINT16 ? d.u16le(at) : d.u32le(at);
            }

            @Override
            public boolean isPresent(Dissection d, int layer) {
                return offsetIn(d.layerType(layer)) >= 0;
            }

            private int offsetIn(HeaderType h) {
                return h == NEGOTIATE_REQUEST ? inRequest : h == NEGOTIATE_RESPONSE ? inResponse
                        : h == DATA_MESSAGE ? inData : -1;
            }
        });
    }
}

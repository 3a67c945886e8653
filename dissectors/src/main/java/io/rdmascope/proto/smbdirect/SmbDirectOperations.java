package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ops.OperationEvents;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.ValueNames;
import io.rdmascope.proto.iwarp.IwarpConnection;
import io.rdmascope.proto.iwarp.IwarpFrame;

import java.util.ArrayList;
import java.util.List;

/**
 * SMB Direct's part of the operation view: an SMB2 request is a command, identified by its message id,
 * and the SMB2 response with the same id ends it ([MS-SMB2] §3.2.5.1). An interim response
 * (STATUS_PENDING, §3.3.4.2) does not: the final one follows. A response fails when its status has
 * error severity ([MS-ERREF] §2.3: the top two bits set), except STATUS_MORE_PROCESSING_REQUIRED, the
 * normal middle step of a Session Setup. The size of a Read is its Length field, of a Write on an
 * RDMA channel its RemainingBytes (its Length is 0 then, §2.2.21), else its Length. A Read
 * or Write on an RDMA channel ({@code smb2.channel} SMB2_CHANNEL_RDMA_V1 or _V1_INVALIDATE, §2.2.19,
 * §2.2.21) carries its buffers as Buffer Descriptor V1 entries ([MS-SMBD] §2.2.3.1: offset, token,
 * length; tshark's {@code smb2.buffer_descriptor.offset}/{@code .token}/{@code .length}) in its channel
 * info; those are the buffers the server's RDMA WRITEs (a Read) and READs (a Write) use.
 *
 * <p>Every SMB2 header of a frame is reported, in order: the messages of a compounded chain ([MS-SMB2]
 * §3.2.4.1.4) on any transport, and over iWARP ([MS-SMBD] §2.1, the queue then the TCP connection, its
 * QPNs 0) those of the several Sends one TCP segment may carry.
 */
final class SmbDirectOperations {
    private static final long STATUS_PENDING = 0x00000103L;
    private static final long STATUS_MORE_PROCESSING_REQUIRED = 0xC0000016L;
    private static final long SEVERITY_ERROR = 0xC0000000L;
    private static final int READ = 0x08;
    private static final int WRITE = 0x09;
    private static final int CANCEL = 0x0C;
    /** §3.3.5.19: the server answers a CHANGE_NOTIFY only when something in the directory changes. */
    private static final int CHANGE_NOTIFY = 0x0F;
    /** [MS-SMBD] §2.2.2: CreditsGranted at byte 10 of a Negotiate Response; §2.2.3: at byte 2 of a Data Transfer message. */
    private static final int NEGOTIATE_RESPONSE_CREDITS_GRANTED = 10;
    private static final int DATA_CREDITS_GRANTED = 2;
    /** Read and Write requests alike: Length at body byte 4. */
    private static final int BODY_LENGTH = 4;
    /** A Read request (§2.2.19): Channel at body byte 36, then RemainingBytes, ReadChannelInfoOffset/Length at 44/46. */
    private static final int READ_CHANNEL = 36;
    /** A Write request (§2.2.21): Channel at body byte 32, then RemainingBytes, WriteChannelInfoOffset/Length at 40/42. */
    private static final int WRITE_CHANNEL = 32;
    /** Channel, RemainingBytes (4 each), then the channel info's offset and length (2 each). */
    private static final int CHANNEL_INFO_OFFSET = 8;
    private static final int CHANNEL_INFO_LENGTH = 10;
    /** A Write's RemainingBytes (§2.2.21): with an RDMA channel, Length is 0 and this is the size. */
    private static final int REMAINING_BYTES = 4;
    private static final long CHANNEL_RDMA_V1 = 1;
    private static final long CHANNEL_RDMA_V1_INVALIDATE = 2;
    /** [MS-SMBD] §2.2.3.1: Offset (8), Token (4), Length (4), little-endian. */
    private static final int DESCRIPTOR_SIZE = 16;
    /** More descriptors than this in one request are not believed (a Windows client sends one per fragment of memory). */
    private static final int MAX_DESCRIPTORS = 64;
    /** [MS-ERREF] §2.3.1 names of the statuses most seen as failures. */
    private static final ValueNames STATUS_NAMES = ValueNames.of(0xC000000DL, "STATUS_INVALID_PARAMETER",
            0xC0000011L, "STATUS_END_OF_FILE", 0xC0000022L, "STATUS_ACCESS_DENIED",
            0xC0000034L, "STATUS_OBJECT_NAME_NOT_FOUND", 0xC0000035L, "STATUS_OBJECT_NAME_COLLISION",
            0xC000003AL, "STATUS_OBJECT_PATH_NOT_FOUND", 0xC0000043L, "STATUS_SHARING_VIOLATION",
            0xC000006DL, "STATUS_LOGON_FAILURE", 0xC00000BBL, "STATUS_NOT_SUPPORTED",
            0xC00000CCL, "STATUS_BAD_NETWORK_NAME", 0xC0000120L, "STATUS_CANCELLED",
            0xC0000128L, "STATUS_FILE_CLOSED", 0xC000009AL, "STATUS_INSUFFICIENT_RESOURCES");

    private SmbDirectOperations() {
    }

    static void extract(Dissection d, OperationEvents out) {
        if (!d.rdma().isRdma()) {
            int smb2 = d.find(SmbDirect.SMB2_HEADER);
            if (smb2 >= 0) {
                extractIwarp(d, smb2, out);
            }
            return;
        }
        int message = d.find(SmbDirect.DATA_MESSAGE); // an SMB2 header rides only in one
        int negotiated = message >= 0 ? -1 : d.find(SmbDirect.NEGOTIATE_RESPONSE);
        if (message < 0 && negotiated < 0) {
            return;
        }
        SmbDirectConnections connections = StreamState.peek(d, SmbDirectConnections.class);
        int destQpn = d.u24(d.rdma().bthStart + 5);
        SmbDirectConnections.Connection c = connections == null ? null : connections.to(destQpn);
        if (c == null) {
            return;
        }
        OperationEvents.Queue queue = new OperationEvents.Queue(SmbDirect.PROTOCOL.abbrev(), "", c.requesterQpn(),
                c.responderQpn());
        boolean byClient = destQpn == c.responderQpn();
        if (negotiated >= 0) {
            // §3.1.5.3: the Negotiate Response grants the client its first send credits, spending none.
            out.sendCredits(new OperationEvents.SendCredits(queue, byClient, false,
                    d.u16le(d.layerStart(negotiated) + NEGOTIATE_RESPONSE_CREDITS_GRANTED)));
            return;
        }
        // §3.1.5.1: every Data Transfer message, fragment or credits-only, spends one of its sender's
        // send credits and grants the receiver CreditsGranted more.
        out.sendCredits(new OperationEvents.SendCredits(queue, byClient, true,
                d.u16le(d.layerStart(message) + DATA_CREDITS_GRANTED)));
        int smb2 = d.find(SmbDirect.SMB2_HEADER);
        if (smb2 >= 0) {
            messages(d, smb2, queue, out);
        }
    }

    /** Every SMB2 message of an iWARP frame, from layer {@code first} on, on its TCP connection's queue. */
    private static void extractIwarp(Dissection d, int first, OperationEvents out) {
        IwarpFrame f = IwarpFrame.of(d);
        IwarpConnection connection = f == null ? null : f.connection();
        if (connection == null || connection.upper(SmbDirectConnections.Connection.class) == null) {
            return;
        }
        messages(d, first, OperationEvents.Queue.onConnection(SmbDirect.PROTOCOL.abbrev(), "", connection), out);
    }

    /**
     * Every SMB2 header of the frame from layer {@code first} on, in order: the messages of a compounded
     * chain ([MS-SMB2] §3.2.4.1.4, one header per NextCommand, each its own request or response, as
     * tshark's {@code smb2.response_to} and {@code -z smb2,srt} count them), and over iWARP those of every
     * Send the segment carries.
     */
    private static void messages(Dissection d, int first, OperationEvents.Queue queue, OperationEvents out) {
        for (int layer = first; layer < d.layerCount(); layer++) {
            if (d.layerType(layer) == SmbDirect.SMB2_HEADER) {
                message(d, d.layerStart(layer), queue, out);
            }
        }
    }

    /** The SMB2 message whose header is at frame offset {@code at}: a request's command or a response. */
    private static void message(Dissection d, int at, OperationEvents.Queue queue, OperationEvents out) {
        long messageId = SmbDirect.smb2MessageId(d, at);
        if (SmbDirect.isSmb2Response(d, at)) {
            long status = d.u32le(at + 8);
            if (status == STATUS_PENDING || messageId == SmbDirect.SMB2_UNSOLICITED_MESSAGE_ID) {
                return; // an interim response, or an oplock or lease break the server sends unasked
            }
            boolean failed = (status & SEVERITY_ERROR) == SEVERITY_ERROR && status != STATUS_MORE_PROCESSING_REQUIRED;
            String name = STATUS_NAMES.nameOf(status);
            out.response(new OperationEvents.Response(queue, messageId,
                    failed ? (name != null ? name : String.format("0x%08x", status)) : null, failed ? status : null));
            return;
        }
        int command = d.u16le(at + 12);
        if (command == CANCEL) {
            return; // §3.2.4.24: a CANCEL repeats the id of the request it cancels and gets no response
        }
        String name = SmbDirect.SMB2_COMMAND_NAMES.nameOf(command);
        long size = 0;
        List<OperationEvents.Buffer> buffers = List.of();
        int body = at + SmbDirect.SMB2_HEADER_SIZE;
        int channel = body + (command == READ ? READ_CHANNEL : WRITE_CHANNEL);
        // A message reassembled from Data Transfer fragments lies past the captured bytes (Dissection.addReassembled).
        int limit = d.capturedLength() + d.reassembledLength();
        if ((command == READ || command == WRITE) && channel + CHANNEL_INFO_LENGTH + 2 <= limit) {
            buffers = channelBuffers(d, at, channel, limit);
            size = command == WRITE && !buffers.isEmpty() ? d.u32le(channel + REMAINING_BYTES) : d.u32le(body + BODY_LENGTH);
        }
        OperationEvents.Command request = new OperationEvents.Command(queue, messageId,
                Long.toUnsignedString(messageId), name != null ? name : String.format("0x%04x", command), size, buffers);
        out.command(command == CHANGE_NOTIFY ? request.awaitingEvent() : request);
    }

    /**
     * The Buffer Descriptor V1 entries of a Read or Write on an RDMA channel; empty on another channel
     * or when the channel info lies outside the captured bytes. The channel info offset counts from the
     * start of the SMB2 header (§2.2.19).
     */
    private static List<OperationEvents.Buffer> channelBuffers(Dissection d, int header, int channelAt, int limit) {
        long channel = d.u32le(channelAt);
        if (channel != CHANNEL_RDMA_V1 && channel != CHANNEL_RDMA_V1_INVALIDATE) {
            return List.of();
        }
        int from = header + d.u16le(channelAt + CHANNEL_INFO_OFFSET);
        int count = Math.min(d.u16le(channelAt + CHANNEL_INFO_LENGTH) / DESCRIPTOR_SIZE, MAX_DESCRIPTORS);
        List<OperationEvents.Buffer> buffers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int p = from + i * DESCRIPTOR_SIZE;
            if (p + DESCRIPTOR_SIZE > limit) {
                break;
            }
            buffers.add(new OperationEvents.Buffer(d.u32le(p + 8), d.u32le(p) | d.u32le(p + 4) << 32,
                    d.u32le(p + 12)));
        }
        return List.copyOf(buffers);
    }
}

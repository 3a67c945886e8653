package io.rdmascope.gui.follow;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.FrameDecoder;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.Formats;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.MessageKind;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Follow → RDMA QP Conversation: the messages of the selected frame's queue-pair conversation in
 * the order their first frames were captured, each with its direction, operation, PSN range and
 * length, and its data, like Follow TCP Stream shows a connection's bytes. The data of a message is
 * the payload of the frames that carry it, each PSN once (a retransmission repeats bytes already
 * shown): the requests for a SEND or WRITE, the READ responses for a READ (an atomic's operands sit
 * in its AtomicETH, a header, so its data is empty).
 */
public final class FollowViewModel {

    /** One message of the conversation; {@code data} is its payload as captured (possibly cut by the snap length). */
    public record Item(Message message, String direction, String operation, String psns, long length, byte[] data) {
        /** The line the message list shows. */
        public String line() {
            return String.format(Locale.ROOT, "%s  %-14s PSN %-17s %,d bytes  frames %d-%d  %s", direction, operation,
                    psns, length, firstFrame(message), lastFrame(message), message.status());
        }
    }

    /** A conversation followed: its title ("Conversation 2: RC 10.0.0.1 QP 0x000011 ↔ …") and its messages in order. */
    public record Stream(String conversation, String title, List<Item> items) {
    }

    private FollowViewModel() {
    }

    /** The conversation of {@code frame}, or null when the frame belongs to none (or the replay has not run). */
    public static Stream follow(CaptureAnalysis analysis, FrameIndex index, DissectorChain chain, int frame) {
        if (analysis == null || index == null) {
            return null;
        }
        String id = analysis.conversationOf(frame);
        if (id == null) {
            return null;
        }
        Flow flow = analysis.flow(id);
        List<Message> messages = new ArrayList<>();
        for (Message m : analysis.messages()) {
            if (m.conversation().equals(id)) {
                messages.add(m);
            }
        }
        messages.sort(Comparator.comparingInt(FollowViewModel::firstFrame));
        FrameDecoder decoder = new FrameDecoder(index, chain);
        List<Item> items = new ArrayList<>(messages.size());
        for (Message m : messages) {
            String direction = m.src().equals(flow.a().address()) && java.util.Objects.equals(m.destQp(), flow.b().qpn())
                    ? "A→B" : "B→A";
            List<Integer> dataFrames = m.kind() == MessageKind.READ ? m.responseFrames() : m.frames();
            items.add(new Item(m, direction, m.kind().name(), Formats.psnRange(m.firstPsn(), m.lastPsn()), m.bytes(),
                    payload(decoder, dataFrames)));
        }
        String title = String.format(Locale.ROOT, "Conversation %s: %s %s QP %s ↔ %s QP %s", id, flow.transport(),
                flow.a().address(), Formats.qp(flow.a().qpn()), flow.b().address(), Formats.qp(flow.b().qpn()));
        return new Stream(id, title, items);
    }

    static int firstFrame(Message m) {
        return m.frames().isEmpty() ? (m.responseFrames().isEmpty() ? 0 : m.responseFrames().get(0)) : m.frames().get(0);
    }

    static int lastFrame(Message m) {
        int last = firstFrame(m);
        for (int f : m.frames()) {
            last = Math.max(last, f);
        }
        for (int f : m.responseFrames()) {
            last = Math.max(last, f);
        }
        return last;
    }

    /** The payload bytes of {@code frames} in order, each BTH PSN once. */
    private static byte[] payload(FrameDecoder decoder, List<Integer> frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BitSet seenPsns = new BitSet();
        for (int number : frames) {
            if (number < 1 || number > decoder.index().count()) {
                continue;
            }
            Dissection d = decoder.dissect(number);
            RdmaContext r = d.rdma();
            if (r.payloadStart < 0 || r.payloadLength <= 0) {
                continue;
            }
            if (r.bthStart >= 0 && r.bthStart + 12 <= d.capturedLength()) {
                int psn = d.u24(r.bthStart + 9); // BTH bytes 9-11: the PSN (IBTA 9.2)
                if (seenPsns.get(psn)) {
                    continue;
                }
                seenPsns.set(psn);
            }
            int end = Math.min(d.capturedLength(), r.payloadStart + r.payloadLength);
            for (int i = r.payloadStart; i < end; i++) {
                out.write(d.u8(i));
            }
        }
        return out.toByteArray();
    }

    /** Hex and ASCII of {@code data}, 16 bytes a line with offsets, as Follow Stream's "Hex Dump" view. */
    public static String hexDump(byte[] data) {
        StringBuilder sb = new StringBuilder(data.length * 4 + 16);
        for (int line = 0; line < data.length; line += 16) {
            sb.append(String.format(Locale.ROOT, "%08x  ", line));
            StringBuilder ascii = new StringBuilder(16);
            for (int i = line; i < line + 16; i++) {
                if (i < data.length) {
                    int b = data[i] & 0xFF;
                    sb.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16)).append(' ');
                    ascii.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
                } else {
                    sb.append("   ");
                }
                if (i == line + 7) {
                    sb.append(' ');
                }
            }
            sb.append(' ').append(ascii).append('\n');
        }
        return sb.toString();
    }
}

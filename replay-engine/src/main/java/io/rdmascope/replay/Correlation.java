package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.proto.ip.Transport;
import io.rdmascope.proto.iwarp.IwarpConnection;
import io.rdmascope.proto.iwarp.IwarpFrame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The same traffic captured at several vantage points, as one story (issue 20): which packets each
 * point saw, the clock offset between every two points with a bound the true offset is known to lie
 * in, the one-way delay between them, and where packets were lost.
 *
 * <p><b>Identity.</b> A RoCE or InfiniBand packet is the same packet at two points when its
 * addresses, destination QP, PSN, opcode and ICRC agree (the ICRC covers every field no switch may
 * change, payload included). A resent packet carries the same bytes, so identical packets are told
 * apart by order: the k-th copy at one point is the k-th at another. A TCP segment of an iWARP connection is
 * the same segment when its addresses, ports, sequence number and bytes agree ({@link #identifyIwarp}); a TCP
 * retransmission is another copy of it. A segment one point saw whole and another saw cut by segmentation
 * offload is matched by its pieces: their sequence ranges tile its range and their FPDUs' MPA CRCs are its
 * own ({@link #foldSplitSegments}).
 *
 * <p><b>Clock offsets.</b> For points A and B, θ is B's clock minus A's. A packet going from A's side
 * to B's side arrives at B after it passed A: {@code tB − tA = θ + d} with {@code d ≥ 0}, so θ is at
 * most that difference; a packet the other way gives θ at least its {@code tB − tA}. Both directions
 * seen: the NTP argument over every packet, not just request/response pairs, with θ allowed to drift at a
 * constant rate ({@link ClockFit}): the fit and a bound the true offset lies within over the whole span.
 * One direction only: the offset cannot be known, and is not guessed. Only packets seen exactly once at
 * each point are used, so a resent copy cannot be mistaken for its first.
 *
 * <p><b>Loss.</b> Which of two points a packet meets first is read, per direction of traffic, from the
 * packets both saw once, clocks corrected. A packet the upstream point saw more often than the
 * downstream one was lost between them; one the downstream point saw more often was missed by the
 * upstream capture, not lost on the wire.
 *
 * <p>Memory grows with the packets of all inputs (per distinct packet its identity, and per point its count of
 * copies, first time and last frame, all in primitive arrays), unlike the replay.
 */
public final class Correlation {
    /** Packets (and directions) the tables are first made for; they double as they fill. */
    private static final int INITIAL_CAPACITY = 1 << 12;

    private final List<String> names;
    private final PacketFacts facts = new PacketFacts();
    /** The CRC of an iWARP segment's first bytes, reused frame after frame. */
    private final CRC32C segmentCrc = new CRC32C();
    /** A view of the frames' buffer the CRC reads through (its position moves), and the buffer it views. */
    private java.nio.ByteBuffer segmentView;
    private java.nio.ByteBuffer segmentViewOf;
    private final long[] framesRead;
    /** Per point: the packet after the one it saw last, tried first ({@link #packet}). */
    private final int[] nextGuess;

    // ---- directions of traffic: one per (address kind, source, destination) ----------------------------
    // Few (a handful per host pair), but looked up once per frame: an open-addressing table over primitives.
    private int directionCount;
    private int[] dirKind = new int[16];
    private long[] dirSrcHi = new long[16];
    private long[] dirSrcLo = new long[16];
    private long[] dirDstHi = new long[16];
    private long[] dirDstLo = new long[16];
    /** Per direction: its text's number ({@link #texts}); two directions written alike are one direction of traffic. */
    private int[] dirText = new int[16];
    private int[] dirSlots = new int[32]; // direction + 1, 0 empty
    /** Direction texts ("source → destination") by number, the number of each text, and each one's reverse text. */
    private final List<String> texts = new ArrayList<>();
    private final List<String> reverseTexts = new ArrayList<>();
    private final Map<String, Integer> textNumber = new HashMap<>();

    // ---- distinct packets, numbered 0, 1, … in order of first sighting ---------------------------------
    // Identity columns (direction stands for the addresses); no object per packet and no boxed key, so the
    // per-frame lookup touches a few arrays and a million packets cost no garbage to collect.
    private int packetCount;
    private int[] pDirection = new int[INITIAL_CAPACITY];
    private int[] pQp = new int[INITIAL_CAPACITY];
    private int[] pPsn = new int[INITIAL_CAPACITY];
    private int[] pOpcode = new int[INITIAL_CAPACITY];
    private long[] pIcrc = new long[INITIAL_CAPACITY];
    /**
     * Per iWARP segment with payload, as first sighted: the sum of a hash of every FPDU ending inside it (its end
     * sequence number, length and MPA CRC). The pieces of a segment cut by segmentation offload sum to the
     * whole's ({@link #foldSplitSegments}). Made with the first such segment, then as long as the other columns:
     * RoCE and InfiniBand traffic neither fills nor copies it.
     */
    private long[] pFpdus = new long[0];
    /**
     * Per packet: the segment it is a piece of ({@link #foldSplitSegments}), or -1. Made when the first piece is
     * found and as long as the packets were then (a packet past its end is no piece): traffic with no segment cut
     * by segmentation offload (all RoCE and InfiniBand traffic) pays no column and no read per packet for it.
     */
    private int[] pieceOf = new int[0];
    /** Per packet: the points at which it was seen only as pieces (bit per point), folded into it; made with {@link #pieceOf}. */
    private long[] foldedAt = new long[0];
    /**
     * (whole × 64 + point) → the time of the piece with its last byte, for wholes a point saw in pieces; read only
     * for a whole {@link #foldedAt} marks at that point, so other packets cost no boxed lookup.
     */
    private final Map<Long, Long> lastPieceTime = new HashMap<>();
    /** iWARP segments with payload among the packets: fewer than a whole and two pieces, and nothing is folded. */
    private int iwarpSegments;
    private int[] slots = new int[2 * INITIAL_CAPACITY]; // packet number + 1, 0 empty; at most half full
    /**
     * Per point, per packet: copies seen, the first copy's time and the last copy's frame. Nothing else of a
     * point's copies is read: times only of packets seen once there, frames only of the last copy (losses).
     */
    private final int[][] copies;
    private final long[][] firstTime;
    private final long[][] lastFrame;
    /** Per frame number of the first point: its packet's number + 1, or 0 (its messages are placed by these). */
    private int[] firstPointPacket = new int[INITIAL_CAPACITY];

    /** @param names the vantage points, in the order their captures are fed */
    public Correlation(List<String> names) {
        if (names.size() < 2) {
            throw new IllegalArgumentException("correlating needs two vantage points or more");
        }
        this.names = List.copyOf(names);
        int n = names.size();
        this.framesRead = new long[n];
        this.nextGuess = new int[n];
        this.copies = new int[n][INITIAL_CAPACITY];
        this.firstTime = new long[n][INITIAL_CAPACITY];
        this.lastFrame = new long[n][INITIAL_CAPACITY];
    }

    /** One dissected frame of vantage point {@code point}; frames of one point in capture order. */
    public void accept(int point, Dissection d) {
        identify(point, d);
    }

    /**
     * {@link #accept}, giving the packet's number (distinct packets numbered 0, 1, … in order of first
     * sighting), or -1 for a frame that is not an RDMA packet it can identify.
     */
    int identify(int point, Dissection d) {
        framesRead[point]++;
        if (!facts.read(d) || facts.headersCut || facts.opcode == null) {
            return identifyIwarp(point, d);
        }
        int direction = direction(facts.addressKind, facts.srcHi, facts.srcLo, facts.dstHi, facts.dstLo);
        int number = packet(point, direction, facts.destQp, facts.psn, facts.opcode.code(), facts.icrcValue());
        sighted(point, number, facts.timeNanos, facts.frame);
        return number;
    }

    /**
     * A TCP segment of an iWARP connection (one the dissector follows from its MPA Request) as a packet:
     * addresses, the two ports, the TCP sequence number, and what no two different segments there share: for
     * a segment with payload, its length and a CRC-32C of its first {@link #IWARP_HASHED_BYTES} bytes (the MPA
     * length, the DDP/RDMAP headers, and for a short FPDU its MPA CRC: bytes no switch changes); for one
     * without (an ACK, a FIN), its acknowledgement number and flags. A TCP retransmission carries the same
     * sequence and bytes: it is another copy of the same packet, counted per point as a resent RoCE packet is.
     * Returns -1 for frames of no iWARP connection.
     */
    private int identifyIwarp(int point, Dissection d) {
        IwarpFrame f = IwarpFrame.of(d);
        int tcp = f == null ? -1 : d.find(Transport.TCP);
        if (tcp < 0 || d.layerLength(tcp) < 20) {
            return -1;
        }
        IwarpConnection c = f.connection();
        int from = f.direction();
        int kind = c.family() == 6 ? Address.IPV6 : Address.IPV4;
        int direction = direction(kind, c.addressHi(from), c.addressLo(from), c.addressHi(1 - from),
                c.addressLo(1 - from));
        int ports = c.port(from) << 16 | c.port(1 - from);
        long key;
        int opcode;
        if (f.payloadLength() == 0) {
            key = NO_PAYLOAD | (long) (f.flags() & 0xFFF) << 32 | (f.ack() & 0xFFFF_FFFFL);
            opcode = IWARP_NO_PAYLOAD;
        } else {
            int start = d.layerStart(tcp) + (d.u8(d.layerStart(tcp) + 12) >> 4) * 4;
            int hashed = Math.max(0, Math.min(IWARP_HASHED_BYTES, Math.min(f.payloadLength(), d.capturedLength() - start)));
            segmentCrc.reset();
            segmentCrc.update(segmentView(d.buffer()).limit(d.base() + start + hashed).position(d.base() + start));
            key = (long) f.payloadLength() << 32 | segmentCrc.getValue();
            // Not the opcode of the FPDUs it completes: which those are depends on the segments a point saw
            // before this one (a point that missed one completes none), and the identity must not.
            opcode = IWARP_SEGMENT;
        }
        int fresh = packetCount;
        int number = packet(point, direction, ports, f.seq(), opcode, key);
        if (number == fresh && opcode == IWARP_SEGMENT) {
            if (pFpdus.length == 0) {
                pFpdus = new long[pDirection.length];
            }
            pFpdus[number] = fpduSum(f);
            iwarpSegments++;
        }
        sighted(point, number, d.frame().timeNanos(), d.frame().number());
        return number;
    }

    /**
     * The sum of a hash of each FPDU of this segment's direction whose last byte lies in it: its end sequence
     * number, length and MPA CRC as on the wire (RFC 5044 §4.1: the CRC covers the whole FPDU, so two points
     * that framed the same FPDU agree on it whatever segments carried it). 0 when none ends in it.
     */
    private static long fpduSum(IwarpFrame f) {
        long sum = 0;
        long start = f.seq() & 0xFFFF_FFFFL;
        for (int i = 0; i < f.pduCount(); i++) {
            io.rdmascope.proto.iwarp.IwarpPdu pdu = f.pdu(i);
            long end = (pdu.endSeq() - f.seq()) & 0xFFFF_FFFFL; // bytes from the segment's start to the FPDU's end
            if (pdu.direction() != f.direction() || end == 0 || end > f.payloadLength()) {
                continue;
            }
            sum += mix(((start + end) << 32 | pdu.crcOnWire() & 0xFFFF_FFFFL) * 31 + pdu.rawLength());
        }
        return sum;
    }

    /**
     * A view of {@code buffer} with its own position and limit, made again only when the frames come in another
     * buffer (a capture reader reuses its buffer frame after frame): no object per segment.
     */
    private java.nio.ByteBuffer segmentView(java.nio.ByteBuffer buffer) {
        if (buffer != segmentViewOf) {
            segmentView = buffer.duplicate();
            segmentViewOf = buffer;
        }
        return segmentView.clear();
    }

    /** Opcodes of iWARP segments, above the 8-bit BTH opcodes: without payload, with payload. */
    private static final int IWARP_NO_PAYLOAD = 0x100;
    private static final int IWARP_SEGMENT = 0x101;
    /** Payload bytes of an iWARP segment its identity hashes (the MPA, DDP and RDMAP headers fit well within). */
    static final int IWARP_HASHED_BYTES = 96;
    /** Marks an iWARP segment's key as an acknowledgement's (its payload key has the length there, never 2³¹). */
    private static final long NO_PAYLOAD = 1L << 63;

    /** Whether packet {@code number} is an iWARP TCP segment rather than a RoCE/InfiniBand packet. */
    boolean isIwarp(int number) {
        return pOpcode[number] >= IWARP_NO_PAYLOAD;
    }

    /** "Reliable Connection (RC) - SEND Only" for a BTH opcode; for iWARP, what kind of TCP segment. */
    static String opcodeName(int opcode) {
        return switch (opcode) {
            case IWARP_NO_PAYLOAD -> "iWARP connection's TCP segment without payload";
            case IWARP_SEGMENT -> "iWARP connection's TCP segment";
            default -> io.rdmascope.proto.ib.Opcodes.of(opcode).name();
        };
    }

    /** A copy of packet {@code number} at {@code point}, its frame and time. */
    private void sighted(int point, int number, long timeNanos, long frameNumber) {
        int seen = copies[point][number]++;
        if (seen == 0) {
            firstTime[point][number] = timeNanos;
        }
        lastFrame[point][number] = frameNumber;
        if (point == 0 && frameNumber > 0 && frameNumber < Integer.MAX_VALUE) {
            int f = (int) frameNumber;
            if (f >= firstPointPacket.length) {
                firstPointPacket = Arrays.copyOf(firstPointPacket, Math.max(f + 1, firstPointPacket.length * 2));
            }
            firstPointPacket[f] = number + 1;
        }
    }

    /** Distinct packets so far. */
    int distinct() {
        return packetCount;
    }

    /** Directions of traffic (address kind, source, destination) so far, numbered 0, 1, … in order of first sighting. */
    int directions() {
        return directionCount;
    }

    /** The direction of traffic of packet {@code number}. */
    int direction(int number) {
        return pDirection[number];
    }

    int psn(int number) {
        return pPsn[number];
    }

    int opcode(int number) {
        return pOpcode[number];
    }

    /**
     * The number of the packet of this identity, made when first seen. A point after the first mostly sees the
     * packets in the order the first did, so the packet after the one it saw last is tried first: its identity
     * columns are read in order (cached), where the table's slot is a random read into a table of a million
     * packets, a cache miss a frame. An identity is one packet's, so a guess that matches it is the answer the
     * table gives.
     */
    private int packet(int point, int direction, int qp, int psn, int opcode, long icrc) {
        int guess = nextGuess[point];
        if (guess < packetCount && pIcrc[guess] == icrc && pPsn[guess] == psn && pQp[guess] == qp
                && pOpcode[guess] == opcode && pDirection[guess] == direction) {
            nextGuess[point] = guess + 1;
            return guess;
        }
        int number = lookUp(direction, qp, psn, opcode, icrc);
        nextGuess[point] = number + 1;
        return number;
    }

    /** The number of the packet of this identity in the table, made when first seen. */
    private int lookUp(int direction, int qp, int psn, int opcode, long icrc) {
        int mask = slots.length - 1;
        for (int i = packetHash(direction, qp, psn, opcode, icrc) & mask; ; i = (i + 1) & mask) {
            int at = slots[i] - 1;
            if (at < 0) {
                int number = packetCount++;
                if (number == pDirection.length) {
                    growPackets();
                }
                pDirection[number] = direction;
                pQp[number] = qp;
                pPsn[number] = psn;
                pOpcode[number] = opcode;
                pIcrc[number] = icrc;
                slots[i] = number + 1;
                if (2 * packetCount > slots.length) {
                    slots = rehash(slots, packetCount, this::packetHash);
                }
                return number;
            }
            if (pIcrc[at] == icrc && pPsn[at] == psn && pQp[at] == qp && pOpcode[at] == opcode
                    && pDirection[at] == direction) {
                return at;
            }
        }
    }

    private int packetHash(int number) {
        return packetHash(pDirection[number], pQp[number], pPsn[number], pOpcode[number], pIcrc[number]);
    }

    private static int packetHash(int direction, int qp, int psn, int opcode, long icrc) {
        long h = (((long) direction * 0x9E3779B97F4A7C15L + qp) * 0x9E3779B97F4A7C15L + psn) * 0x9E3779B97F4A7C15L
                + ((long) opcode << 32 ^ icrc);
        return mix(h);
    }

    private void growPackets() {
        int size = pDirection.length * 2;
        pDirection = Arrays.copyOf(pDirection, size);
        pQp = Arrays.copyOf(pQp, size);
        pPsn = Arrays.copyOf(pPsn, size);
        pOpcode = Arrays.copyOf(pOpcode, size);
        pIcrc = Arrays.copyOf(pIcrc, size);
        if (pFpdus.length > 0) {
            pFpdus = Arrays.copyOf(pFpdus, size);
        }
        for (int p = 0; p < names.size(); p++) {
            copies[p] = Arrays.copyOf(copies[p], size);
            firstTime[p] = Arrays.copyOf(firstTime[p], size);
            lastFrame[p] = Arrays.copyOf(lastFrame[p], size);
        }
    }

    /** The number of this direction of traffic, made (with its texts) when first seen. */
    private int direction(int kind, long srcHi, long srcLo, long dstHi, long dstLo) {
        int mask = dirSlots.length - 1;
        for (int i = directionHash(kind, srcHi, srcLo, dstHi, dstLo) & mask; ; i = (i + 1) & mask) {
            int at = dirSlots[i] - 1;
            if (at < 0) {
                int number = directionCount++;
                if (number == dirKind.length) {
                    int size = number * 2;
                    dirKind = Arrays.copyOf(dirKind, size);
                    dirSrcHi = Arrays.copyOf(dirSrcHi, size);
                    dirSrcLo = Arrays.copyOf(dirSrcLo, size);
                    dirDstHi = Arrays.copyOf(dirDstHi, size);
                    dirDstLo = Arrays.copyOf(dirDstLo, size);
                    dirText = Arrays.copyOf(dirText, size);
                }
                dirKind[number] = kind;
                dirSrcHi[number] = srcHi;
                dirSrcLo[number] = srcLo;
                dirDstHi[number] = dstHi;
                dirDstLo[number] = dstLo;
                dirText[number] = textOf(new Address(kind, srcHi, srcLo).text(), new Address(kind, dstHi, dstLo).text());
                dirSlots[i] = number + 1;
                if (2 * directionCount > dirSlots.length) {
                    dirSlots = rehash(dirSlots, directionCount, d -> directionHash(dirKind[d], dirSrcHi[d], dirSrcLo[d],
                            dirDstHi[d], dirDstLo[d]));
                }
                return number;
            }
            if (dirSrcLo[at] == srcLo && dirDstLo[at] == dstLo && dirSrcHi[at] == srcHi && dirDstHi[at] == dstHi
                    && dirKind[at] == kind) {
                return at;
            }
        }
    }

    private static int directionHash(int kind, long srcHi, long srcLo, long dstHi, long dstLo) {
        long h = (((kind * 0x9E3779B97F4A7C15L + srcHi) * 0x9E3779B97F4A7C15L + srcLo) * 0x9E3779B97F4A7C15L
                + dstHi) * 0x9E3779B97F4A7C15L + dstLo;
        return mix(h);
    }

    /** The number of the direction text "source → destination", made when first written. */
    private int textOf(String source, String destination) {
        String text = source + " → " + destination;
        Integer known = textNumber.get(text);
        if (known != null) {
            return known;
        }
        textNumber.put(text, texts.size());
        texts.add(text);
        reverseTexts.add(destination + " → " + source);
        return texts.size() - 1;
    }

    /** A table of {@code count} entries (numbers + 1) rebuilt at twice the size. */
    private static int[] rehash(int[] table, int count, java.util.function.IntUnaryOperator hash) {
        int[] out = new int[table.length * 2];
        int mask = out.length - 1;
        for (int number = 0; number < count; number++) {
            int i = hash.applyAsInt(number) & mask;
            while (out[i] != 0) {
                i = (i + 1) & mask;
            }
            out[i] = number + 1;
        }
        return out;
    }

    /** Spreads a key's bits over the table index (the 64-bit finaliser of MurmurHash3). */
    private static int mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe1a85ec3L;
        h ^= h >>> 33;
        return (int) h;
    }

    /**
     * The clock offset of {@code to} relative to {@code from}: {@code offsetNs} at {@code from}'s time
     * {@code referenceNs} (the first packet both saw), changing by {@code driftPpm}; at any moment between the
     * first and last packet both saw, the true offset lies within {@link #at} ± {@code boundNs}. All null when
     * unknowable, with a note saying why.
     */
    public record ClockOffset(String from, String to, Long offsetNs, Long boundNs, Double driftPpm, Long referenceNs,
                              long samples, String note) {
        /** The offset at {@code fromNs} on {@code from}'s clock, to the nanosecond. */
        public long at(long fromNs) {
            return offsetNs + Math.round(driftPpm * (fromNs - referenceNs) / 1e6);
        }
    }

    /** One-way delay from one point to another for one direction of traffic, clocks corrected. */
    public record Delay(String from, String to, String direction, long packets, long minNs, long medianNs,
                        long maxNs) {
    }

    /** Copies of a packet one point saw and the next one on its path did not. */
    public record Loss(String direction, int destQp, int psn, String opcode, int copies, String lastSeenAt,
                       long lastSeenFrame, String missingAt, boolean onTheWire) {
    }

    /** What the points saw: per point frames and RDMA packets, distinct packets and those seen at two points or more. */
    public record Counts(List<Long> frames, List<Long> packets, long distinct, long multiSighted) {
    }

    /** One hop of a message's first packet: from the point it passed first to the next, clocks corrected. */
    public record Hop(String from, String to, long ns) {
    }

    /**
     * Request to completion seen at one point, on that point's own clock (no offset needed): at the point
     * nearest the responder it is the responder's think time plus the fabric between that point and the
     * responder, so it bounds the think time from above; the requester's round trip minus it is fabric.
     */
    public record Turnaround(String at, long ns) {
    }

    /**
     * The responder's think time for one message: from the request packet its response answers arriving to
     * the first packet of that response leaving (docs/correlate.md, "Think time"). {@code requestAt} and
     * {@code responseAt} are the points it was read at: the point nearest the responder that saw the request,
     * and the one nearest it that saw the response. When both are the responder's host capture, {@code ns} is
     * the think time exactly, on that host's clock ({@code boundNs} 0); a point further out adds the fabric
     * between it and the responder. When they differ, the request's time is put on the response point's clock
     * with their offset, and the true value (think time plus the fabric between those points and the responder)
     * lies within {@code ns ± boundNs} (the offset's bound).
     * {@code fabricNs}: the round trip of the same two packets at {@code fabricAt} (the point nearest the
     * requester that saw both, on its own clock) minus {@code ns}: the time the fabric between those points
     * took, both ways; null when no other point saw both.
     */
    public record ThinkTime(long ns, long boundNs, String requestAt, String responseAt, Long fabricNs,
                            String fabricAt) {
    }

    /**
     * A message of the first point's replay: the one-way delays of its first packet between every two
     * points that both saw that packet once and whose clock offset is known, the shortest turnaround
     * (first packet to completion) any point saw, or null, and the responder's think time, or null.
     */
    public record MessageDelay(String conversation, MessageKind kind, int firstPsn, long frame, List<Hop> delays,
                               Turnaround turnaround, ThinkTime thinkTime) {
    }

    /**
     * Per conversation of the first point's replay, the think times of its messages ({@link ThinkTime}) and the
     * fabric times beside them: how many, min, median, max. {@code maxBoundNs} is the widest bound among the
     * think times (0 when every one was read on one clock); the fabric figures are null when none was measured.
     */
    public record ConversationThinkTime(String conversation, long messages, long minNs, long medianNs, long maxNs,
                                        long maxBoundNs, long fabricMessages, Long fabricMinNs, Long fabricMedianNs,
                                        Long fabricMaxNs) {
    }

    /** The whole account. */
    public record Result(List<String> vantagePoints, Counts packets, List<ClockOffset> clockOffsets,
                         List<Delay> oneWayDelays, List<Loss> lost, List<MessageDelay> messages,
                         List<ConversationThinkTime> thinkTimes) {
    }

    /** Correlates everything fed so far, without per-message delays. */
    public Result result() {
        return result(List.of());
    }

    /**
     * Correlates everything fed so far; {@code firstPointMessages} (the first point's replay, whose frame
     * numbers they name) get their one-way delays.
     */
    public Result result(List<Message> firstPointMessages) {
        foldSplitSegments();
        int n = names.size();
        long[] perPoint = new long[n];
        long multi = 0;
        long distinct = 0;
        for (int i = 0; i < packetCount; i++) {
            int seenAt = 0;
            for (int p = 0; p < n; p++) {
                perPoint[p] += foldedAt(i, p) ? 0 : copies[p][i]; // frames, not the pieces' whole
                seenAt += copies[p][i] > 0 ? 1 : 0;
            }
            if (pieceOf(i) < 0) {
                distinct++;
                multi += seenAt >= 2 ? 1 : 0;
            }
        }
        int[] reverse = new int[texts.size()];
        for (int d = 0; d < reverse.length; d++) {
            reverse[d] = textNumber.getOrDefault(reverseTexts.get(d), -1);
        }
        List<ClockOffset> offsets = new ArrayList<>();
        List<Delay> delays = new ArrayList<>();
        boolean[][][] upstream = new boolean[texts.size()][][]; // per direction text: [a][b] when it passes a before b
        PairTiming[][] timings = new PairTiming[n][n];
        int[] both = new int[packetCount]; // the packets a pair's points both saw once; reused pair after pair
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                int shared = 0;
                for (int i = 0; i < packetCount; i++) {
                    if (copies[a][i] == 1 && copies[b][i] == 1 && pieceOf(i) < 0) {
                        both[shared++] = i;
                    }
                }
                PairTiming t = timing(a, b, both, shared, reverse);
                timings[a][b] = t;
                offsets.add(t.offset());
                if (t.offset().offsetNs() != null) {
                    delays(t, both, shared, delays, upstream);
                }
            }
        }
        List<Loss> lost = losses(upstream);
        List<Long> frames = new ArrayList<>();
        List<Long> seen = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            frames.add(framesRead[p]);
            seen.add(perPoint[p]);
        }
        ThinkTimes think = new ThinkTimes(n);
        List<MessageDelay> messages = messageDelays(firstPointMessages, timings, upstream, think);
        return new Result(names, new Counts(frames, seen, distinct, multi), offsets, delays, lost, messages,
                think.perConversation());
    }

    /** The number of the packet frame {@code frame} of the first point carried, or -1. */
    private int firstPointPacket(long frame) {
        int number = frame > 0 && frame < firstPointPacket.length ? firstPointPacket[(int) frame] - 1 : -1;
        return number < 0 ? -1 : whole(number);
    }

    /**
     * The packet a sighting of packet {@code number} counts as: the whole segment when it is a piece of one that
     * segmentation offload cut ({@link #foldSplitSegments}, once {@link #result} has run), itself otherwise.
     */
    int whole(int number) {
        int whole = pieceOf(number);
        return whole >= 0 ? whole : number;
    }

    /** The segment packet {@code number} is a piece of, or -1 ({@link #foldSplitSegments}). */
    private int pieceOf(int number) {
        return number < pieceOf.length ? pieceOf[number] : -1;
    }

    /** Whether point p saw packet {@code number} only as pieces, folded into it. */
    private boolean foldedAt(int number, int p) {
        return number < foldedAt.length && (foldedAt[number] >>> p & 1) != 0;
    }

    /**
     * Segments one point saw whole and another saw cut in pieces (TCP segmentation offload: the sender's host
     * captures a 64 KB segment before its NIC cuts it into MSS-sized ones, which a switch or the receiver
     * sees; docs/correlate.md, "Split segments"). For each iWARP segment with payload and each point that did
     * not see it, the segments that point saw which tile its sequence range exactly, two or more, starting at
     * its first byte, whose FPDUs' hashes sum to its own (the same FPDUs, CRCs included) and whose first piece
     * starts with its first bytes, become its pieces: the point saw the segment, at the time of the piece with
     * its first byte (the time one-way delays and clock offsets read) and the frame of the piece with its
     * last. The pieces are no packets of their own any more (not distinct, not lost, not timed).
     */
    private void foldSplitSegments() {
        int n = names.size();
        if (n > Long.SIZE || iwarpSegments < 3) {
            return; // which points saw a whole by its pieces is a bit per point; a whole and two pieces at least
        }
        // The segments not yet pieces of another. A whole is a segment some point did not see (it saw the pieces):
        // when every point saw every segment (iWARP without segmentation offload, nothing lost), nothing to sort.
        int[] segments = new int[iwarpSegments];
        int count = 0;
        boolean unseenSomewhere = false;
        for (int i = 0; i < packetCount; i++) {
            if (pOpcode[i] == IWARP_SEGMENT && pieceOf(i) < 0) {
                segments[count++] = i;
                for (int p = 0; p < n && !unseenSomewhere; p++) {
                    unseenSomewhere = copies[p][i] == 0;
                }
            }
        }
        if (!unseenSomewhere) {
            return;
        }
        sortSegments(segments, new int[count], 0, count);
        for (int from = 0, to; from < count; from = to) {
            // One stream (direction of traffic and ports): its segments by sequence number, a whole before its pieces.
            for (to = from + 1; to < count && sameStream(segments[from], segments[to]); to++) {
                // the stream's end
            }
            if (to - from < 3) {
                continue; // a whole and two pieces at least
            }
            for (int k = from; k < to; k++) {
                int whole = segments[k];
                for (int p = 0; p < n && pieceOf(whole) < 0; p++) {
                    if (copies[p][whole] == 0) {
                        fold(whole, p, segments, k + 1, to);
                    }
                }
            }
        }
    }

    /** Whether two iWARP segments belong to one stream: the same direction of traffic and ports. */
    private boolean sameStream(int x, int y) {
        return pDirection[x] == pDirection[y] && pQp[x] == pQp[y];
    }

    /**
     * Segments [from, to) of {@code a} sorted by stream, sequence number (a stream shorter than 4 GB: no wrap), the
     * longest first (a whole before its first piece), then packet number (first sighted first); a merge sort over
     * packet numbers, so no segment is boxed.
     */
    private void sortSegments(int[] a, int[] scratch, int from, int to) {
        if (to - from < 2) {
            return;
        }
        int mid = (from + to) >>> 1;
        sortSegments(a, scratch, from, mid);
        sortSegments(a, scratch, mid, to);
        if (segmentOrder(a[mid - 1], a[mid]) <= 0) {
            return; // already in order (segments are mostly met in sequence order)
        }
        System.arraycopy(a, from, scratch, from, to - from);
        for (int i = from, j = mid, k = from; k < to; k++) {
            a[k] = j >= to || i < mid && segmentOrder(scratch[i], scratch[j]) <= 0 ? scratch[i++] : scratch[j++];
        }
    }

    private int segmentOrder(int x, int y) {
        int order = Integer.compare(pDirection[x], pDirection[y]);
        order = order != 0 ? order : Integer.compare(pQp[x], pQp[y]);
        order = order != 0 ? order : Long.compare(pPsn[x] & 0xFFFF_FFFFL, pPsn[y] & 0xFFFF_FFFFL);
        order = order != 0 ? order : Long.compare(segmentLength(y), segmentLength(x));
        return order != 0 ? order : Integer.compare(x, y);
    }

    /** An iWARP segment's payload bytes (its identity's key holds them above its first bytes' CRC). */
    private long segmentLength(int segment) {
        return pIcrc[segment] >>> 32;
    }

    /**
     * Folds the segments {@code point} saw that tile {@code whole} into it, when they do (see
     * {@link #foldSplitSegments}); the candidates are its stream's {@code segments[from, to)}, the ones sorted after it.
     */
    private void fold(int whole, int point, int[] segments, int from, int to) {
        long start = pPsn[whole] & 0xFFFF_FFFFL;
        long end = start + segmentLength(whole);
        long at = start;
        long sum = 0;
        int[] pieces = new int[8];
        int count = 0;
        int fewestCopies = Integer.MAX_VALUE;
        for (int j = from; j < to && at < end; j++) {
            int s = segments[j];
            long seq = pPsn[s] & 0xFFFF_FFFFL;
            if (seq > at) {
                break; // a hole: that point did not see every byte
            }
            if (seq < at || copies[point][s] == 0 || pieceOf(s) >= 0 && pieceOf(s) != whole
                    || seq + segmentLength(s) > end) {
                continue;
            }
            if (count == pieces.length) {
                pieces = Arrays.copyOf(pieces, count * 2);
            }
            pieces[count++] = s;
            sum += pFpdus[s];
            at += segmentLength(s);
            fewestCopies = Math.min(fewestCopies, copies[point][s]);
        }
        int first = pieces[0];
        if (at != end || count < 2 || pFpdus[whole] == 0 || sum != pFpdus[whole]
                || segmentLength(first) >= IWARP_HASHED_BYTES && (int) pIcrc[first] != (int) pIcrc[whole]) {
            return;
        }
        if (pieceOf.length < packetCount) {
            int already = pieceOf.length;
            pieceOf = Arrays.copyOf(pieceOf, packetCount);
            foldedAt = Arrays.copyOf(foldedAt, packetCount);
            Arrays.fill(pieceOf, already, packetCount, -1);
        }
        for (int k = 0; k < count; k++) {
            pieceOf[pieces[k]] = whole;
        }
        copies[point][whole] = fewestCopies;
        firstTime[point][whole] = firstTime[point][first];
        lastFrame[point][whole] = lastFrame[point][pieces[count - 1]];
        foldedAt[whole] |= 1L << point;
        lastPieceTime.put((long) whole * Long.SIZE + point, firstTime[point][pieces[count - 1]]);
    }

    private List<MessageDelay> messageDelays(List<Message> messages, PairTiming[][] timings, boolean[][][] upstream,
                                             ThinkTimes think) {
        List<MessageDelay> out = new ArrayList<>();
        int n = names.size();
        for (Message m : messages) {
            if (m.frames().isEmpty()) {
                continue;
            }
            long frame = m.frames().get(0);
            int s = firstPointPacket(frame);
            if (s < 0) {
                continue;
            }
            int direction = dirText[pDirection[s]];
            List<Hop> hops = new ArrayList<>();
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    PairTiming t = timings[a][b];
                    if (t.offset().offsetNs() == null || copies[a][s] != 1 || copies[b][s] != 1) {
                        continue;
                    }
                    if (t.aFirst()[direction]) {
                        hops.add(new Hop(names.get(a), names.get(b), delay(t, s, a)));
                    } else if (t.bFirst()[direction]) {
                        hops.add(new Hop(names.get(b), names.get(a), delay(t, s, b)));
                    }
                }
            }
            ThinkTime thinkTime = thinkTime(m, timings, upstream, think);
            if (thinkTime != null) {
                think.add(m.conversation(), thinkTime);
            }
            out.add(new MessageDelay(m.conversation(), m.kind(), m.firstPsn(), frame, hops, turnaround(s, m),
                    thinkTime));
        }
        return out;
    }

    /**
     * Per pair of points (a &lt; b): θ(b − a); per direction text, whether it passes a before b ({@code aFirst})
     * or b before a ({@code bFirst}); and the directions the packets both saw once go, in order of first sighting
     * with how many of those packets each has.
     */
    private record PairTiming(int a, int b, ClockOffset offset, boolean[] aFirst, boolean[] bFirst, int[] order,
                              int ordered, int[] sharedPackets) {
    }

    /** How long packet {@code number} (seen once at a and b) took from {@code from} (a or b) to the other, clocks corrected. */
    private long delay(PairTiming t, int number, int from) {
        long ta = firstTime[t.a()][number];
        long tb = firstTime[t.b()][number];
        long theta = t.offset().at(ta);
        return from == t.a() ? tb - theta - ta : ta + theta - tb;
    }

    /** Host pairs up to which every orientation of their directions is tried when the means' admits no line. */
    private static final int MAX_ORIENTED_PAIRS = 4;

    /**
     * θ(b − a) from the packets both saw once ({@code both}, the first {@code shared}). The two directions
     * between two hosts pass the points in opposite orders, and the one passing a first shows the larger
     * {@code tB − tA} (θ plus a delay, against θ minus one; with drift, on average): for each host pair seen
     * both ways at both points, the line θ(t) lies under its a-first direction's points and over the other's
     * ({@link ClockFit}).
     */
    private PairTiming timing(int a, int b, int[] both, int shared, int[] reverse) {
        int directionTexts = texts.size();
        double[] sum = new double[directionTexts]; // of tB − tA, per direction
        int[] count = new int[directionTexts];
        int[] order = new int[directionTexts];
        int ordered = 0;
        for (int k = 0; k < shared; k++) {
            int i = both[k];
            int d = dirText[pDirection[i]];
            if (count[d]++ == 0) {
                order[ordered++] = d;
            }
            sum[d] += firstTime[b][i] - firstTime[a][i];
        }
        // Each host pair seen both ways: its two directions, the one whose mean difference is larger first.
        List<int[]> pairs = new ArrayList<>();
        boolean[] paired = new boolean[directionTexts];
        for (int k = 0; k < ordered; k++) {
            int there = order[k];
            int back = reverse[there];
            if (back < 0 || count[back] == 0 || paired[back]) {
                continue; // seen one way only (which point it meets first cannot be told), or done from the other way
            }
            paired[there] = true;
            boolean thereFirst = sum[there] / count[there] >= sum[back] / count[back];
            pairs.add(thereFirst ? new int[]{there, back} : new int[]{back, there});
        }
        String from = names.get(a);
        String to = names.get(b);
        boolean[] aFirst = new boolean[directionTexts];
        boolean[] bFirst = new boolean[directionTexts];
        if (ordered == 0) {
            return new PairTiming(a, b, unknown(from, to, 0, "no packet seen at both"), aFirst, bFirst, order, 0, count);
        }
        if (pairs.isEmpty()) {
            return new PairTiming(a, b, unknown(from, to, 0,
                    "traffic seen at both in one direction only: the offset cannot be known"), aFirst, bFirst, order,
                    ordered, count);
        }
        // The means compare differences taken at different moments: with drift, a direction whose packets
        // come later on average can show the larger mean while passing b first (20 ppm turns 1 µs of delay
        // around in 50 ms). When the means' orientation admits no line, the others are tried (a few host
        // pairs' worth: each try is a pass over the shared packets), the means' first; the first admitting one wins.
        int tries = pairs.size() <= MAX_ORIENTED_PAIRS ? 1 << pairs.size() : 1;
        long samples = 0;
        ClockFit.Fit fit = null;
        for (int flips = 0; flips < tries && fit == null; flips++) {
            Arrays.fill(aFirst, false);
            Arrays.fill(bFirst, false);
            for (int i = 0; i < pairs.size(); i++) {
                boolean flipped = (flips >> i & 1) != 0;
                aFirst[pairs.get(i)[flipped ? 1 : 0]] = true; // passes a first: θ at most its differences
                bFirst[pairs.get(i)[flipped ? 0 : 1]] = true; // passes b first: θ at least its differences
            }
            ClockFit.Samples above = new ClockFit.Samples();
            ClockFit.Samples below = new ClockFit.Samples();
            for (int k = 0; k < shared; k++) {
                int i = both[k];
                int d = dirText[pDirection[i]];
                ClockFit.Samples into = aFirst[d] ? above : bFirst[d] ? below : null;
                if (into != null) {
                    into.add(firstTime[a][i], firstTime[b][i] - firstTime[a][i]);
                }
            }
            samples = above.size() + below.size();
            fit = ClockFit.fit(above, below);
        }
        if (fit == null) {
            return new PairTiming(a, b, unknown(from, to, samples, "the packets seen at both agree with no clock "
                    + "offset drifting at a constant rate (timestamps out of order, or a clock stepped)"), aFirst,
                    bFirst, order, ordered, count);
        }
        return new PairTiming(a, b, new ClockOffset(from, to, fit.offsetNs(), fit.boundNs(), fit.driftPpm(),
                fit.referenceNs(), samples, null), aFirst, bFirst, order, ordered, count);
    }

    private static ClockOffset unknown(String from, String to, long samples, String note) {
        return new ClockOffset(from, to, null, null, null, null, samples, note);
    }

    /**
     * One-way delays of the packets both points saw once, clocks corrected, both ways in one pass: a to b for
     * the directions that pass a first, then b to a for the others, each direction in order of first sighting.
     */
    private void delays(PairTiming t, int[] both, int shared, List<Delay> out, boolean[][][] upstream) {
        int a = t.a();
        int b = t.b();
        boolean[] aFirst = t.aFirst();
        boolean[] bFirst = t.bFirst();
        long[][] fromA = new long[aFirst.length][];
        long[][] fromB = new long[aFirst.length][];
        int[] filledA = new int[aFirst.length];
        int[] filledB = new int[aFirst.length];
        for (int k = 0; k < t.ordered(); k++) {
            int d = t.order()[k];
            fromA[d] = aFirst[d] ? new long[t.sharedPackets()[d]] : null;
            fromB[d] = bFirst[d] ? new long[t.sharedPackets()[d]] : null;
        }
        for (int k = 0; k < shared; k++) {
            int i = both[k];
            int d = dirText[pDirection[i]];
            if (aFirst[d]) {
                fromA[d][filledA[d]++] = delay(t, i, a);
            }
            if (bFirst[d]) {
                fromB[d][filledB[d]++] = delay(t, i, b);
            }
        }
        summarise(a, b, t, fromA, out);
        summarise(b, a, t, fromB, out);
        for (int d = 0; d < aFirst.length; d++) {
            if (aFirst[d]) {
                passes(upstream, d)[a][b] = true;
            }
            if (bFirst[d]) {
                passes(upstream, d)[b][a] = true;
            }
        }
    }

    /** Min, median and max of each direction's delays from one point to the other, in order of first sighting. */
    private void summarise(int from, int to, PairTiming t, long[][] delays, List<Delay> out) {
        for (int k = 0; k < t.ordered(); k++) {
            long[] ds = delays[t.order()[k]];
            if (ds == null) {
                continue;
            }
            Arrays.sort(ds);
            out.add(new Delay(names.get(from), names.get(to), texts.get(t.order()[k]), ds.length, ds[0],
                    ds[ds.length / 2], ds[ds.length - 1]));
        }
    }

    /** Direction {@code d}'s order of points ([a][b]: passes a before b), made when first needed. */
    private boolean[][] passes(boolean[][][] upstream, int d) {
        if (upstream[d] == null) {
            upstream[d] = new boolean[names.size()][names.size()];
        }
        return upstream[d];
    }

    /** The shortest first-packet-to-completion gap over the points that saw both once, or null. */
    private Turnaround turnaround(int request, Message m) {
        int completion = m.completionFrame() == null ? -1 : firstPointPacket((long) m.completionFrame());
        if (completion < 0 || completion == request) {
            return null;
        }
        Turnaround best = null;
        for (int p = 0; p < names.size(); p++) {
            if (copies[p][request] == 1 && copies[p][completion] == 1) {
                long gap = firstTime[p][completion] - firstTime[p][request];
                if (best == null || gap < best.ns()) {
                    best = new Turnaround(names.get(p), gap);
                }
            }
        }
        return best;
    }

    /**
     * The responder's think time for message {@code m} ({@link ThinkTime}). The request packet answered is the
     * latest copy of the message's last request packet (the highest PSN or TCP sequence among its request
     * frames: a READ's or atomic's request, a SEND's or WRITE's last packet) seen before the completion; the
     * response is the first of the message's response packets (its READ responses, atomic acknowledge, or the
     * ACK completing it) after that request. Each is read at the point nearest the responder that saw it once
     * (in its direction's order of points; where the order is unknown, the point that saw both with the
     * shortest gap, as the turnaround is judged). Null when no point saw both, or the two points' offset is
     * unknown.
     */
    private ThinkTime thinkTime(Message m, PairTiming[][] timings, boolean[][][] upstream, ThinkTimes scratch) {
        int completion = m.completionFrame() == null ? -1 : firstPointPacket((long) m.completionFrame());
        if (completion < 0) {
            return null;
        }
        Packets requests = lastRequestPackets(m, scratch.requests);
        if (requests.size == 0) {
            return null;
        }
        Packets responses = responsePackets(m, completion, scratch.responses);
        int n = names.size();
        int[] request = scratch.request;   // per point: the answered request copy it saw, or -1
        int[] response = scratch.response; // per point: the first response it saw after that request, or -1
        for (int p = 0; p < n; p++) {
            long until = copies[p][completion] == 1 ? firstTime[p][completion] : Long.MAX_VALUE;
            request[p] = latestSeenOnce(p, requests, until);
            response[p] = request[p] < 0 ? earliestSeenOnce(p, responses, Long.MIN_VALUE)
                    : earliestSeenOnce(p, responses, lastByteTime(p, request[p]));
        }
        boolean[][] requestOrder = upstream[dirText[pDirection[requests.numbers[0]]]];
        boolean[][] responseOrder = upstream[dirText[pDirection[completion]]];
        int at = nearestResponder(request, requestOrder, true);
        int from = nearestResponder(response, responseOrder, false);
        if (at < 0 || from < 0 || requestOrder == null || responseOrder == null) {
            return oneClockThinkTime(request, response);
        }
        if (response[at] >= 0 && (from == at || !nearer(responseOrder, from, at, false))) {
            from = at; // the request's point saw the response too, and none nearer the responder did
        }
        long ns;
        long bound;
        if (from == at) {
            ns = gap(at, request[at], response[at]);
            bound = 0;
        } else {
            ClockOffset o = timings[Math.min(at, from)][Math.max(at, from)].offset();
            if (o.offsetNs() == null) {
                return oneClockThinkTime(request, response);
            }
            // θ is the higher-numbered point's clock minus the lower's, read at the lower's time.
            long requestTime = lastByteTime(at, request[at]);
            long requestOnResponseClock = at < from ? requestTime + o.at(requestTime) : requestTime - o.at(requestTime
                    - o.offsetNs());
            // The first response after this request, as the response's point saw it (not one answering an earlier copy).
            int answer = earliestSeenOnce(from, responses, requestOnResponseClock);
            if (answer < 0) {
                return oneClockThinkTime(request, response);
            }
            response[from] = answer;
            ns = firstTime[from][answer] - requestOnResponseClock;
            bound = o.boundNs();
        }
        return withFabric(ns, bound, at, from, request[at], response[from], requestOrder);
    }

    /** Think time read at the one point that saw both packets with the shortest gap; null when none did. */
    private ThinkTime oneClockThinkTime(int[] request, int[] response) {
        int best = -1;
        for (int p = 0; p < request.length; p++) {
            if (request[p] >= 0 && response[p] >= 0 && (best < 0 || gap(p, request[p], response[p])
                    < gap(best, request[best], response[best]))) {
                best = p;
            }
        }
        return best < 0 ? null : withFabric(gap(best, request[best], response[best]), 0, best, best, request[best],
                response[best], null);
    }

    /** From the request's last byte to the response's first at one point, on its clock. */
    private long gap(int point, int request, int response) {
        return firstTime[point][response] - lastByteTime(point, request);
    }

    /**
     * When point p saw the last byte of packet {@code number}: its time, or for a segment it saw in pieces the
     * piece with the last byte's (a request is complete, and can be answered, only then).
     */
    private long lastByteTime(int p, int number) {
        return foldedAt(number, p) ? lastPieceTime.get((long) number * Long.SIZE + p) : firstTime[p][number];
    }

    /**
     * The think time with the fabric time beside it: the same two packets' gap at the point nearest the requester
     * that saw both once (other than the points the think time was read at), minus the think time.
     */
    private ThinkTime withFabric(long ns, long bound, int at, int from, int request, int response,
                                 boolean[][] requestOrder) {
        int fabricAt = -1;
        for (int p = 0; p < names.size(); p++) {
            if (p == at || p == from || copies[p][request] != 1 || copies[p][response] != 1) {
                continue;
            }
            if (fabricAt < 0 || requestOrder != null && requestOrder[p][fabricAt]) {
                fabricAt = p;
            }
        }
        Long fabric = fabricAt < 0 ? null : gap(fabricAt, request, response) - ns;
        return new ThinkTime(ns, bound, names.get(at), names.get(from), fabric,
                fabricAt < 0 ? null : names.get(fabricAt));
    }

    /**
     * Among the points that saw their packet ({@code seen[p] >= 0}), the one nearest the responder: last on the
     * request direction's path ({@code onRequestPath}), first on the response's. -1 when none saw it.
     */
    private static int nearestResponder(int[] seen, boolean[][] order, boolean onRequestPath) {
        int best = -1;
        for (int p = 0; p < seen.length; p++) {
            if (seen[p] >= 0 && (best < 0 || order != null && nearer(order, p, best, onRequestPath))) {
                best = p;
            }
        }
        return best;
    }

    /** Whether point p is nearer the responder than q: after it on a request's path, before it on a response's. */
    private static boolean nearer(boolean[][] order, int p, int q, boolean onRequestPath) {
        return onRequestPath ? order[q][p] : order[p][q];
    }

    /** The packets of the message's request frames at its highest PSN (TCP sequence for iWARP): every copy. */
    private Packets lastRequestPackets(Message m, Packets out) {
        out.size = 0;
        int first = -1;
        long highest = -1;
        List<Integer> frames = m.frames();
        // By index (a message's lists are random-access views over its frame numbers): no iterator per message.
        for (int k = 0, size = frames.size(); k < size; k++) {
            int s = firstPointPacket(frames.get(k));
            if (s < 0) {
                continue;
            }
            first = first < 0 ? s : first;
            long offset = (pPsn[s] - pPsn[first]) & (isIwarp(s) ? 0xFFFF_FFFFL : 0xFF_FFFFL);
            if (offset > highest) {
                highest = offset;
                out.size = 0;
            }
            if (offset == highest) {
                out.add(s);
            }
        }
        return out;
    }

    /** The packets of the message's response frames and of its completion. */
    private Packets responsePackets(Message m, int completion, Packets out) {
        out.size = 0;
        List<Integer> frames = m.responseFrames();
        for (int k = 0, size = frames.size(); k < size; k++) {
            int s = firstPointPacket(frames.get(k));
            if (s >= 0) {
                out.add(s);
            }
        }
        out.add(completion);
        return out;
    }

    /** The packet among {@code candidates} point p saw once, latest no later than {@code until}; -1 when none. */
    private int latestSeenOnce(int p, Packets candidates, long until) {
        int best = -1;
        for (int k = 0; k < candidates.size; k++) {
            int s = candidates.numbers[k];
            if (copies[p][s] == 1 && firstTime[p][s] <= until && (best < 0 || firstTime[p][s] > firstTime[p][best])) {
                best = s;
            }
        }
        return best;
    }

    /** The packet among {@code candidates} point p saw once, earliest no sooner than {@code after}; -1 when none. */
    private int earliestSeenOnce(int p, Packets candidates, long after) {
        int best = -1;
        for (int k = 0; k < candidates.size; k++) {
            int s = candidates.numbers[k];
            if (copies[p][s] == 1 && firstTime[p][s] >= after && (best < 0 || firstTime[p][s] < firstTime[p][best])) {
                best = s;
            }
        }
        return best;
    }

    /** Packet numbers, a growable list reused message after message (no arrays made per message). */
    private static final class Packets {
        int[] numbers = new int[8];
        int size;

        void add(int number) {
            if (size == numbers.length) {
                numbers = Arrays.copyOf(numbers, size * 2);
            }
            numbers[size++] = number;
        }
    }

    /**
     * Think time's working space for one {@link #result}: the candidate packets and the per-point sightings of the
     * message at hand (reused message after message), and per conversation, in order of its first message with a
     * think time, its think and fabric times as they come (so the distribution is made from primitive columns,
     * not by reading a million result records back).
     */
    private static final class ThinkTimes {
        final Packets requests = new Packets();
        final Packets responses = new Packets();
        final int[] request;
        final int[] response;
        private final Map<String, Times> byConversation = new java.util.LinkedHashMap<>();
        /** The conversation of the previous think time: messages of one conversation often come in a row. */
        private String lastConversation;
        private Times last;

        ThinkTimes(int points) {
            request = new int[points];
            response = new int[points];
        }

        void add(String conversation, ThinkTime t) {
            if (last == null || !conversation.equals(lastConversation)) {
                last = byConversation.computeIfAbsent(conversation, k -> new Times());
                lastConversation = conversation;
            }
            last.think.add(t.ns());
            if (t.fabricNs() != null) {
                last.fabric.add(t.fabricNs());
            }
            last.maxBound = Math.max(last.maxBound, t.boundNs());
        }

        /** Per conversation (in order of its first message), its think and fabric times: count, min, median, max. */
        List<ConversationThinkTime> perConversation() {
            List<ConversationThinkTime> out = new ArrayList<>(byConversation.size());
            byConversation.forEach((conversation, times) -> {
                long[] think = times.think.sorted();
                long[] fabric = times.fabric.sorted();
                boolean anyFabric = fabric.length > 0;
                out.add(new ConversationThinkTime(conversation, think.length, think[0], think[think.length / 2],
                        think[think.length - 1], times.maxBound, fabric.length, anyFabric ? fabric[0] : null,
                        anyFabric ? fabric[fabric.length / 2] : null, anyFabric ? fabric[fabric.length - 1] : null));
            });
            return out;
        }

        /** One conversation's think times, fabric times beside them, and the widest bound (0 when all on one clock). */
        private static final class Times {
            final Nanos think = new Nanos();
            final Nanos fabric = new Nanos();
            /** The widest bound so far (a conversation is made with its first think time, so this is a true max). */
            long maxBound = Long.MIN_VALUE;
        }
    }

    /** Nanosecond values, a growable primitive column. */
    private static final class Nanos {
        private long[] values = new long[16];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        long[] sorted() {
            long[] out = Arrays.copyOf(values, size);
            Arrays.sort(out);
            return out;
        }
    }

    /** Copies one point saw and the next point downstream did not, for every direction whose order is known. */
    private List<Loss> losses(boolean[][][] upstream) {
        List<Loss> out = new ArrayList<>();
        int n = names.size();
        for (int i = 0; i < packetCount; i++) {
            int direction = dirText[pDirection[i]];
            boolean[][] before = upstream[direction];
            if (before == null || pieceOf(i) >= 0) {
                continue;
            }
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    int atA = copies[a][i];
                    int atB = copies[b][i];
                    if (!before[a][b] || atA == atB || !adjacent(before, a, b)) {
                        continue;
                    }
                    boolean wire = atA > atB;
                    int seenAt = wire ? a : b;
                    int missing = wire ? b : a;
                    out.add(new Loss(texts.get(direction), pQp[i], pPsn[i],
                            opcodeName(pOpcode[i]), Math.abs(atA - atB),
                            names.get(seenAt), lastFrame[seenAt][i], names.get(missing), wire));
                }
            }
        }
        return out;
    }

    /** Whether no third point lies between a and b on this direction's path. */
    private static boolean adjacent(boolean[][] before, int a, int b) {
        for (int c = 0; c < before.length; c++) {
            if (c != a && c != b && before[a][c] && before[c][b]) {
                return false;
            }
        }
        return true;
    }
}

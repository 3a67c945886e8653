package io.rdmascope.samples;

import io.rdmascope.build.EthernetFrame;
import io.rdmascope.samples.ScenarioCatalog.Format;
import io.rdmascope.samples.Wire.Encap;
import io.rdmascope.samples.iwarp.IwarpScenarios;
import io.rdmascope.samples.iwarp.IwarpSession;
import io.rdmascope.samples.iwarp.IwarpSession.Options;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * One iWARP run seen from two vantage points (issue 20): the MPA initiator's host, whose capture sees its own
 * segments before TCP segmentation offload (one large segment where the wire carries several), and a switch
 * mirror on the wire, which sees the MSS-sized segments the NIC cut them into.
 *
 * <p><b>How it is played.</b> An iWARP session is played on one {@link Fabric} as the single-capture iWARP
 * scenarios are: each FPDU in its own segment of at most an MSS (RFC 5044 §8), which is what the wire carries.
 * The host's capture then joins each run of the initiator's back-to-back data segments (contiguous sequence
 * numbers, the same acknowledgement and flags, nothing of the peer's between them) into one segment of their
 * bytes, as the host's stack handed it to its NIC: the same addresses, ports and window, the first piece's
 * sequence number and IP identification (a NIC numbers the pieces on from it), checksums recomputed. True
 * times: the host stamps its whole segment when its first piece leaves; each piece passes the switch
 * {@code toSwitchNs} plus 0–150 ns of queueing later; the responder's segments pass the switch when played and
 * reach the host {@code toHostNs} plus queueing later. The switch's clock is {@code switchClockOffsetNs} ahead of
 * the host's (no drift). Nothing is lost.
 */
public final class IwarpTsoScenario {
    /** The two points; each capture is in the order its point stamped its frames. */
    public enum Point {
        HOST, SWITCH;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A segment of the host's capture ({@code hostFrame}) and the switch's frames that carry its bytes: one for a
     * segment the NIC did not cut, several for a whole it cut. {@code firstByteDelayNs}: true time from the host's
     * stamp of it to the switch's of the frame with its first byte.
     */
    public record Segment(int hostFrame, List<Integer> switchFrames, long seq, int length, boolean fromHost,
                          long hostTrueNs, long switchTrueNs, long firstByteDelayNs) {
    }

    /** What was planted: the switch's clock, the links' delays, and every frame's counterpart. */
    public record Truth(long seed, long switchClockOffsetNs, long toSwitchNs, long toHostNs, int wholes,
                        List<Segment> segments) {
    }

    /** Both captures and the truth. */
    public record Run(List<Trace.CapturedFrame> host, List<Trace.CapturedFrame> atSwitch, Truth truth) {
    }

    /** The committed case: its name for {@code generate --scenario}, its seed and description. */
    public static final String NAME = "vantage_iwarp_tso";
    public static final long SEED = 93;
    public static final String DESCRIPTION = "One iWARP run (Sends, Writes up to 100 KB, a Read) seen at the MPA "
            + "initiator's host, which captures its segments before TCP segmentation offload (up to 64 KB each), and "
            + "at a switch mirror, which sees the MSS-sized segments its NIC cut them into; the switch's clock "
            + "seconds off, nothing lost.";

    private static final long REMOTE_STAG = 0x00A1B2C3L;
    private static final long LOCAL_STAG = 0x00D4E5F6L;
    /** The ULPDU bytes an FPDU carries: with MPA, DDP and RDMAP headers and the CRC, a segment of about an MSS. */
    private static final int MULPDU = 1_400;
    /** The largest segment an offloading stack hands its NIC (a 64 KB IP datagram, less headers). */
    private static final int TSO_MAX = 65_000;
    private static final int ETHERNET = 14;
    private static final int IPV4 = 20;

    private IwarpTsoScenario() {
    }

    /** Writes the run for {@code seed} into {@code dir/NAME/}: host.pcapng, switch.pcapng, truth.json, README.md. */
    public static Path write(Path dir, long seed) throws IOException {
        Run run = generate(seed);
        Path caseDir = dir.resolve(NAME);
        Files.createDirectories(caseDir);
        Scenarios.writeCapture(caseDir.resolve(Point.HOST.id() + ".pcapng"), Format.PCAPNG, run.host());
        Scenarios.writeCapture(caseDir.resolve(Point.SWITCH.id() + ".pcapng"), Format.PCAPNG, run.atSwitch());
        Files.writeString(caseDir.resolve(Scenarios.TRUTH_FILE), Scenarios.json(run.truth()), StandardCharsets.UTF_8);
        Files.writeString(caseDir.resolve("README.md"), NAME + ": " + DESCRIPTION + "\n", StandardCharsets.UTF_8);
        return caseDir;
    }

    /** The run for {@code seed}: its clock offset, link delays and queueing are the seed's. */
    public static Run generate(long seed) {
        Fabric fabric = new Fabric(seed, Wire.of(Encap.ROCE_V2_IPV4), Scenarios.START_NANOS); // iWARP ignores the wire
        IwarpSession s = IwarpSession.connect(fabric, fabric.host(1), fabric.host(2), Options.standard(), MULPDU);
        IwarpScenarios.sendAndAck(s, s.send(200, false));
        IwarpScenarios.sendAndAck(s, s.send(20_000, false));                          // 15 FPDUs: one whole
        IwarpScenarios.sendAndAck(s, s.write(30_000, REMOTE_STAG, 0x10000));          // 22 FPDUs: one whole
        IwarpScenarios.readAndRespond(s, s.read(12_000, LOCAL_STAG, 0x1000, REMOTE_STAG, 0x20000));
        IwarpScenarios.sendAndAck(s, s.write(100_000, REMOTE_STAG, 0x40000));         // over 64 KB: two wholes
        s.close();
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + 7);
        long theta = (random.nextInt(10_000_000) - 5_000_000) * 1_000L + random.nextInt(1_000);
        long toSwitch = 300 + random.nextInt(900);
        long toHost = 300 + random.nextInt(900);
        return cut(fabric.trace().frames(), fabric.host(1).mac(), seed, theta, toSwitch, toHost, random);
    }

    /** One frame as a point stamps it: its true time, bytes, and the segment of the truth it belongs to. */
    private record Stamped(long trueNs, byte[] bytes, int segment) {
    }

    private static Run cut(List<Trace.CapturedFrame> played, byte[] hostMac, long seed, long theta, long toSwitch,
                           long toHost, Random random) {
        List<Stamped> host = new ArrayList<>();
        List<Stamped> atSwitch = new ArrayList<>();
        List<long[]> segmentTimes = new ArrayList<>(); // per segment: host true time, switch true time of its first byte
        List<int[]> segmentShape = new ArrayList<>();  // per segment: seq, length, from host, pieces
        int wholes = 0;
        long[] lastArrival = {Long.MIN_VALUE, Long.MIN_VALUE}; // at the switch from the host, at the host from the switch
        for (int i = 0; i < played.size(); ) {
            Trace.CapturedFrame f = played.get(i);
            boolean fromHost = Arrays.equals(f.bytes(), 6, 12, hostMac, 0, 6);
            int j = i + 1;
            if (fromHost && payload(f.bytes()) > 0) {
                int total = payload(f.bytes());
                while (j < played.size() && follows(played.get(j - 1).bytes(), played.get(j).bytes())
                        && total + payload(played.get(j).bytes()) <= TSO_MAX) {
                    total += payload(played.get(j).bytes());
                    j++;
                }
            }
            int segment = segmentTimes.size();
            long firstSwitch = -1;
            for (int k = i; k < j; k++) {
                Trace.CapturedFrame piece = played.get(k);
                // Links are FIFO: queueing never lets a segment overtake the one before it.
                long at = fromHost ? Math.max(piece.timeNanos() + toSwitch + random.nextInt(151), lastArrival[0] + 1)
                        : piece.timeNanos();
                lastArrival[0] = fromHost ? at : lastArrival[0];
                atSwitch.add(new Stamped(at, piece.bytes(), segment));
                firstSwitch = firstSwitch < 0 ? at : firstSwitch;
            }
            byte[] whole = j - i == 1 ? f.bytes() : join(played.subList(i, j));
            wholes += j - i > 1 ? 1 : 0;
            long hostAt = fromHost ? f.timeNanos()
                    : Math.max(f.timeNanos() + toHost + random.nextInt(151), lastArrival[1] + 1);
            lastArrival[1] = fromHost ? lastArrival[1] : hostAt;
            host.add(new Stamped(hostAt, whole, segment));
            segmentTimes.add(new long[] {hostAt, firstSwitch});
            segmentShape.add(new int[] {seq(f.bytes()), payload(whole), fromHost ? 1 : 0, j - i});
            i = j;
        }
        List<Trace.CapturedFrame> hostFrames = new ArrayList<>();
        List<Trace.CapturedFrame> switchFrames = new ArrayList<>();
        int[] hostFrame = new int[segmentTimes.size()];
        List<List<Integer>> piecesAt = new ArrayList<>();
        segmentTimes.forEach(t -> piecesAt.add(new ArrayList<>()));
        for (Stamped x : sorted(host)) {
            hostFrames.add(new Trace.CapturedFrame(x.trueNs(), x.bytes(), x.bytes().length, f0(played)));
            hostFrame[x.segment()] = hostFrames.size();
        }
        for (Stamped x : sorted(atSwitch)) {
            switchFrames.add(new Trace.CapturedFrame(x.trueNs() + theta, x.bytes(), x.bytes().length, f0(played)));
            piecesAt.get(x.segment()).add(switchFrames.size());
        }
        List<Segment> segments = new ArrayList<>();
        for (int k = 0; k < segmentTimes.size(); k++) {
            long[] t = segmentTimes.get(k);
            int[] shape = segmentShape.get(k);
            segments.add(new Segment(hostFrame[k], piecesAt.get(k), shape[0] & 0xFFFF_FFFFL, shape[1], shape[2] == 1,
                    t[0], t[1], t[1] - t[0]));
        }
        segments.sort(Comparator.comparingInt(Segment::hostFrame));
        return new Run(hostFrames, switchFrames, new Truth(seed, theta, toSwitch, toHost, wholes, segments));
    }

    /** Capture order: by the point's stamp, the played order on a tie. */
    private static List<Stamped> sorted(List<Stamped> frames) {
        List<Stamped> out = new ArrayList<>(frames);
        out.sort(Comparator.comparingLong(Stamped::trueNs)); // stable: ties keep the played order
        return out;
    }

    private static int f0(List<Trace.CapturedFrame> played) {
        return played.get(0).linkType();
    }

    /** Whether {@code next} continues {@code previous} as the same stack's next segment of one send (see the class). */
    private static boolean follows(byte[] previous, byte[] next) {
        return Arrays.equals(previous, 0, 12, next, 0, 12) && payload(next) > 0
                && seq(next) == seq(previous) + payload(previous)
                && Arrays.equals(previous, tcp() + 8, tcp() + 14, next, tcp() + 8, tcp() + 14); // ack, offset, flags
    }

    /** The pieces' bytes as one segment: the first piece's headers, every piece's payload. */
    private static byte[] join(List<Trace.CapturedFrame> pieces) {
        byte[] first = pieces.get(0).bytes();
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        for (Trace.CapturedFrame p : pieces) {
            payload.write(p.bytes(), tcp() + 20, payload(p.bytes()));
        }
        int ipId = (first[ETHERNET + 4] & 0xFF) << 8 | first[ETHERNET + 5] & 0xFF;
        return EthernetFrame.between(Arrays.copyOfRange(first, 6, 12), Arrays.copyOfRange(first, 0, 6)).ipId(ipId)
                .ipv4(Arrays.copyOfRange(first, ETHERNET + 12, ETHERNET + 16),
                        Arrays.copyOfRange(first, ETHERNET + 16, ETHERNET + 20))
                .tcp(u16(first, tcp()), u16(first, tcp() + 2), seq(first) & 0xFFFF_FFFFL,
                        u32(first, tcp() + 8) & 0xFFFF_FFFFL, u16(first, tcp() + 12) & 0x0FFF, payload.toByteArray());
    }

    private static int tcp() {
        return ETHERNET + IPV4;
    }

    /** TCP payload bytes: the IPv4 total length less its header and the TCP header (RFC 791, RFC 9293). */
    private static int payload(byte[] b) {
        int ipLength = u16(b, ETHERNET + 2);
        return ipLength - IPV4 - ((b[tcp() + 12] & 0xFF) >> 4) * 4;
    }

    private static int seq(byte[] b) {
        return u32(b, tcp() + 4);
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
    }

    private static int u32(byte[] b, int at) {
        return u16(b, at) << 16 | u16(b, at + 2);
    }
}

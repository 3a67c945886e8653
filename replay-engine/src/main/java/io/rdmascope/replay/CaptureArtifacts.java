package io.rdmascope.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the capture path did to the frames, told apart from what the traffic did (issue 15), each
 * reported once per capture (or per interface, or per sender) instead of once per frame:
 * <ul>
 *   <li>ICRCs that never verify. Bad verdicts of a sender are held until one of its frames verifies,
 *       then released as {@code bad_icrc}; at the end, a sender, interface or capture none of whose
 *       frames verified (at least {@link #ICRC_MIN_FRAMES}) gives one {@code icrc_not_verifiable}.</li>
 *   <li>Frames shorter than their own IP/UDP length while their records claim to be whole.</li>
 *   <li>RoCE frames cut inside the transport headers, which the replay cannot follow.</li>
 * </ul>
 * Memory is bounded: counts, a few frame numbers for the report, and at most
 * {@link #HELD_PER_SENDER} held verdicts per sender.
 */
final class CaptureArtifacts {
    /**
     * Frames a sender (or interface) must have, none verifying, before its bad ICRCs are called a
     * property of the capture. Fewer bad frames with nothing to compare them to stay {@code bad_icrc}:
     * a lone corrupted ACK, or a short burst on a faulty link, is a fault worth an error, while
     * corruption of every one of four or more consecutive frames of a sender, with none intact, is not
     * what a link does (the committed case violation_bad_icrc has one bad frame among verified ones).
     */
    static final int ICRC_MIN_FRAMES = 4;
    /** Bad verdicts held per sender until one of its frames verifies. */
    static final int HELD_PER_SENDER = 1024;
    /** Frame numbers a finding lists before "+N more". */
    static final int SAMPLE = 10;
    /** Distinct places (addresses, QP) remembered for frames cut inside their headers. */
    private static final int PLACES = 64;

    /** Where a frame cut inside its headers was going: addresses (null when cut before them) and QP (-1). */
    record Place(Address source, Address destination, int destQp) {
    }

    private final ReplayListener listener;
    private final IcrcCheck icrc;
    private final Map<Integer, Interface> interfaces = new TreeMap<>();
    private long cutSilently;
    private final Sample cutSilentlyFrames = new Sample();
    private long headersCut;
    private final Sample headersCutFrames = new Sample();
    private final Set<Place> headersCutPlaces = new LinkedHashSet<>();
    private boolean headersCutUnplaced;

    CaptureArtifacts(ReplayListener listener, IcrcCheck icrc) {
        this.listener = listener;
        this.icrc = icrc;
    }

    IcrcCheck icrcCheck() {
        return icrc;
    }

    /** The first {@link #SAMPLE} frame numbers of a kind, and how many there were. */
    private static final class Sample {
        final List<Long> frames = new ArrayList<>(SAMPLE);

        void add(long frame) {
            if (frames.size() < SAMPLE) {
                frames.add(frame);
            }
        }

        String text(long count) {
            List<Long> sorted = new ArrayList<>(frames);
            sorted.sort(null);
            StringBuilder sb = new StringBuilder();
            for (Long f : sorted) {
                sb.append(sb.length() == 0 ? "" : ", ").append(f);
            }
            return count > sorted.size() ? sb + " (+" + (count - sorted.size()) + " more)" : sb.toString();
        }
    }

    /** ICRC verdicts of one capture interface (pcapng IDB; 0 for pcap). */
    private static final class Interface {
        long good;
        long bad;
        final Map<Address, Sender> senders = new LinkedHashMap<>();
    }

    /** ICRC verdicts of one sender on one interface; its bad ones held while none of its frames verified. */
    private static final class Sender {
        long good;
        long bad;
        final List<Observation.BadCrc> held = new ArrayList<>();
        long notHeld;
    }

    // ---- ICRC -------------------------------------------------------------------------------------------

    /** A frame of {@code conversation} whose ICRC was checked: {@code good} or not. */
    void icrc(PacketFacts p, String conversation, boolean good) {
        Interface in;
        Sender s;
        int hit = recentSender(p);
        if (hit >= 0) {
            in = recentInterface[hit];
            s = recentSenders[hit];
        } else {
            in = interfaces.computeIfAbsent(p.interfaceId, k -> new Interface());
            s = in.senders.computeIfAbsent(p.source(), k -> new Sender());
            remember(p, in, s);
        }
        if (good) {
            in.good++;
            if (s.good++ == 0) {
                release(s);
            }
            return;
        }
        in.bad++;
        s.bad++;
        Observation.BadCrc o = new Observation.BadCrc(p.frame, conversation, p.psn, false);
        if (s.good > 0) {
            listener.observation(o);
        } else if (s.held.size() < HELD_PER_SENDER) {
            s.held.add(o);
        } else {
            s.notHeld++;
        }
    }

    // The senders of the last few frames, keyed by the packet's primitive fields: a frame's sender is found
    // without making an Address (this runs for every RDMA frame).
    private static final int RECENT = 8;
    private final int[] recentInterfaceId = new int[RECENT];
    private final int[] recentKind = new int[RECENT];
    private final long[] recentHi = new long[RECENT];
    private final long[] recentLo = new long[RECENT];
    private final Interface[] recentInterface = new Interface[RECENT];
    private final Sender[] recentSenders = new Sender[RECENT];
    private int recentNext;

    private int recentSender(PacketFacts p) {
        for (int i = 0; i < RECENT; i++) {
            if (recentSenders[i] != null && recentLo[i] == p.srcLo && recentHi[i] == p.srcHi
                    && recentKind[i] == p.addressKind && recentInterfaceId[i] == p.interfaceId) {
                return i;
            }
        }
        return -1;
    }

    private void remember(PacketFacts p, Interface in, Sender s) {
        int i = recentNext;
        recentNext = (recentNext + 1) % RECENT;
        recentInterfaceId[i] = p.interfaceId;
        recentKind[i] = p.addressKind;
        recentHi[i] = p.srcHi;
        recentLo[i] = p.srcLo;
        recentInterface[i] = in;
        recentSenders[i] = s;
    }

    /** A sender's held verdicts are traffic faults after all: reported one by one (as many as were kept). */
    private void release(Sender s) {
        for (Observation.BadCrc o : s.held) {
            listener.observation(o);
        }
        if (s.notHeld > 0) {
            Observation.BadCrc last = s.held.get(s.held.size() - 1);
            listener.observation(new Observation.LimitReached(last.frame(), last.conversation(),
                    "bad ICRCs held per sender until one verifies (" + HELD_PER_SENDER + "): " + s.notHeld
                            + " more not listed"));
        }
        s.held.clear();
        s.notHeld = 0;
    }

    private void finishIcrc() {
        for (Map.Entry<Integer, Interface> e : interfaces.entrySet()) {
            Interface in = e.getValue();
            String onInterface = interfaces.size() > 1 ? " on interface " + e.getKey() : "";
            if (in.good == 0 && in.bad >= ICRC_MIN_FRAMES) {
                List<Address> all = new ArrayList<>(in.senders.keySet());
                notVerifiable(interfaces.size() > 1 ? "interface " + e.getKey() : "this capture", in.bad, all,
                        new ArrayList<>(in.senders.values()));
                continue;
            }
            for (Map.Entry<Address, Sender> se : in.senders.entrySet()) {
                Sender s = se.getValue();
                if (s.good == 0 && s.bad >= ICRC_MIN_FRAMES) {
                    notVerifiable("sender " + se.getKey().text() + onInterface, s.bad, List.of(se.getKey()),
                            List.of(s));
                } else if (s.good == 0) {
                    release(s);
                }
            }
        }
    }

    private void notVerifiable(String scope, long count, List<Address> senders, List<Sender> from) {
        List<Observation.BadCrc> held = new ArrayList<>();
        for (Sender s : from) {
            held.addAll(s.held);
        }
        held.sort(java.util.Comparator.comparingLong(Observation.BadCrc::frame));
        Sample sample = new Sample();
        for (Observation.BadCrc o : held) {
            sample.add(o.frame());
        }
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < senders.size() && i < SAMPLE; i++) {
            names.append(i == 0 ? "" : ", ").append(senders.get(i).text());
        }
        if (senders.size() > SAMPLE) {
            names.append(" (+").append(senders.size() - SAMPLE).append(" more)");
        }
        listener.observation(new Observation.IcrcNotVerifiable(held.get(0).frame(), null, scope, count,
                names.toString(), sample.text(count)));
    }

    // ---- cut frames ---------------------------------------------------------------------------------------

    /** A frame shorter than its own IP/UDP length whose record claims it whole. */
    void cutSilently(long frame) {
        cutSilently++;
        cutSilentlyFrames.add(frame);
    }

    /** A RoCE frame cut inside its transport headers, going to {@code place} (null when its addresses are cut too). */
    void headersCut(long frame, Place place) {
        headersCut++;
        headersCutFrames.add(frame);
        if (place == null) {
            headersCutUnplaced = true;
        } else if (headersCutPlaces.size() < PLACES) {
            headersCutPlaces.add(place);
        }
    }

    /**
     * The capture ended: the held ICRC verdicts are decided and the capture findings emitted.
     * {@code conversationOf} names the (final) conversation a place belongs to, or null.
     */
    void finish(Function<Place, String> conversationOf) {
        if (icrc == IcrcCheck.AUTO) {
            finishIcrc();
        }
        if (cutSilently > 0) {
            listener.observation(new Observation.FramesCutSilently(cutSilentlyFrames.frames.get(0), null,
                    cutSilently, cutSilentlyFrames.text(cutSilently)));
        }
        if (headersCut > 0) {
            Set<Integer> ids = new java.util.TreeSet<>();
            boolean unknown = headersCutUnplaced;
            for (Place p : headersCutPlaces) {
                String id = conversationOf.apply(p);
                if (id == null) {
                    unknown = true;
                } else {
                    ids.add(Integer.parseInt(id));
                }
            }
            StringBuilder where = new StringBuilder();
            if (!ids.isEmpty()) {
                where.append(ids.size() == 1 ? "conversation " : "conversations ");
                for (Integer id : ids) {
                    where.append(where.charAt(where.length() - 1) == ' ' ? "" : ", ").append(id);
                }
            }
            if (unknown) {
                where.append(ids.isEmpty() ? "" : ", and ").append("traffic the capture could not place");
            }
            listener.observation(new Observation.HeadersCut(headersCutFrames.frames.get(0), null, headersCut,
                    headersCutFrames.text(headersCut), where.toString()));
        }
    }
}

package io.rdmascope.samples;

import io.rdmascope.proto.ib.Service;
import io.rdmascope.samples.RandomTraffic.Pair;
import io.rdmascope.samples.RandomTraffic.Tx;
import io.rdmascope.samples.RandomTraffic.Vantage;
import io.rdmascope.samples.ScenarioCatalog.Format;
import io.rdmascope.samples.Wire.Encap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The random scenario family ({@code generate --scenario random --seed N}): each seed draws its own
 * fabric and mix — 2–16 hosts, 1–8 QP pairs between a pair of hosts, RC (one or both sides
 * requesting), UC and UD, every RC operation, path MTUs 256–4096, IPv4, IPv6 and VLANs, with or
 * without CM, PSNs near the wrap, loss of any packet kind on either side of the capture point,
 * packets the capture misses, fabric duplicates, RNR NAKs, ACK coalescing, a capture that starts and
 * ends mid-message, and one host's timestamps skewed by 1–50 µs — and writes the capture with its
 * truth. Deterministic per seed and options.
 */
public final class RandomScenario {
    public static final String NAME = "random";

    /** What {@code generate} may set: frames wanted, loss rate, capture point (null: the seed picks). */
    public record Options(int frames, double loss, String vantage) {
        public Options {
            if (frames < 1) {
                throw new IllegalArgumentException("--frames must be at least 1");
            }
            if (loss < 0 || loss > 0.5) {
                throw new IllegalArgumentException("--loss must be 0..0.5");
            }
            if (vantage != null) {
                Vantage.parse(vantage);
            }
        }

        public static Options defaults() {
            return new Options(2_000, 0.02, null);
        }
    }

    /** A generated capture in memory: its frames in file order and its truth. */
    public record Result(String name, Format format, List<Trace.CapturedFrame> frames, Truth truth) {
    }

    private RandomScenario() {
    }

    /** Name of the case a seed generates: {@code random-N}. */
    public static String name(long seed) {
        return NAME + "-" + seed;
    }

    public static Result generate(long seed, Options options) {
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + 0x1234567L);
        RandomTraffic.Mix mix = new RandomTraffic.Mix();
        mix.loss = options.loss() * 2 * random.nextDouble();
        mix.notCaptured = random.nextBoolean() ? 0.005 + 0.01 * random.nextDouble() : 0;
        mix.duplicate = random.nextBoolean() ? 0.005 + 0.015 * random.nextDouble() : 0;
        mix.rnr = random.nextDouble() * 0.08;
        Vantage[] vantages = Vantage.values();
        mix.vantage = options.vantage() != null ? Vantage.parse(options.vantage())
                : vantages[random.nextInt(vantages.length)];
        int budget = (int) Math.max(10, options.frames() * 1.08);
        RandomTraffic traffic = new RandomTraffic(random, mix, Scenarios.START_NANOS, budget);
        layOutFabric(random, traffic);
        traffic.run();

        // The capture window: in true time, maybe starting and ending in the middle of messages.
        List<Tx> txs = new ArrayList<>(traffic.captured);
        txs.sort(Comparator.comparingLong((Tx t) -> t.captureTime).thenComparingLong(t -> t.order));
        int from = 0;
        int to = txs.size();
        if (random.nextBoolean() && to > 40) {
            from = 1 + random.nextInt(to / 25);
        }
        if (random.nextBoolean() && to - from > 40) {
            to -= 1 + random.nextInt((to - from) / 25);
        }
        List<Tx> causal = new ArrayList<>(txs.subList(from, to));
        // One host's timestamps run late by 1–50 µs: the file is sorted by timestamp, as a merged capture is.
        Host skewed = null;
        long skew = 0;
        if (random.nextBoolean() && !traffic.pairs.isEmpty()) {
            Pair p = traffic.pairs.get(random.nextInt(traffic.pairs.size()));
            skewed = random.nextBoolean() ? p.a : p.b;
            skew = 1_000 + random.nextInt(49_001);
        }
        for (int i = 0; i < causal.size(); i++) {
            Tx t = causal.get(i);
            t.causal = i;
            t.fileTime = t.captureTime + (skewed != null && t.from == skewed ? skew : 0);
        }
        List<Tx> file = new ArrayList<>(causal);
        file.sort(Comparator.comparingLong((Tx t) -> t.fileTime).thenComparingInt(t -> t.causal));
        List<Trace.CapturedFrame> frames = new ArrayList<>(file.size());
        for (int i = 0; i < file.size(); i++) {
            Tx t = file.get(i);
            t.frame = i + 1;
            frames.add(new Trace.CapturedFrame(t.fileTime, t.bytes, t.bytes.length, t.linkType));
        }
        Format format = random.nextInt(3) == 0 ? Format.PCAP : Format.PCAPNG;
        String name = name(seed);
        String description = description(traffic, mix, from, txs.size() - to, skewed, skew);
        Truth truth = RandomTruth.derive(NAME, description, seed, name + "." + format.extension(), format.extension(),
                causal, traffic.pairs);
        return new Result(name, format, frames, truth);
    }

    /** Writes {@code DIR/random-N/random-N.pcap|pcapng} and {@code truth.json}; returns the capture. */
    public static Path write(Path dir, long seed, Options options) throws IOException {
        Result r = generate(seed, options);
        Path caseDir = dir.resolve(r.name());
        Files.createDirectories(caseDir);
        Path capture = caseDir.resolve(r.name() + "." + r.format().extension());
        Scenarios.writeCapture(capture, r.format(), r.frames());
        Files.writeString(caseDir.resolve(Scenarios.TRUTH_FILE), Scenarios.toJson(r.truth()), StandardCharsets.UTF_8);
        return capture;
    }

    private static String description(RandomTraffic t, RandomTraffic.Mix mix, int cutStart, int cutEnd, Host skewed,
                                      long skew) {
        int rc = 0;
        int uc = 0;
        int ud = 0;
        int both = 0;
        int cm = 0;
        for (Pair p : t.pairs) {
            switch (p.service) {
                case RC -> rc++;
                case UC -> uc++;
                case UD -> ud++;
            }
            both += p.flows[1] != null ? 1 : 0;
            cm += p.cm ? 1 : 0;
        }
        return String.format(java.util.Locale.ROOT, "Random family: %d RC, %d UC, %d UD QP pairs (%d requesting both "
                        + "ways, %d with CM); vantage %s, loss %.3f, not captured %.3f, duplicates %.3f, RNR %.3f; "
                        + "capture cut %d frames at the start and %d at the end; %s", rc, uc, ud, both, cm,
                mix.vantage.id(), mix.loss, mix.notCaptured, mix.duplicate, mix.rnr, cutStart, cutEnd,
                skewed == null ? "no timestamp skew" : skewed.name() + "'s timestamps " + skew + " ns late");
    }

    // ---- the fabric -------------------------------------------------------------------------------------------

    private static void layOutFabric(Random random, RandomTraffic traffic) {
        int hosts = 2 + random.nextInt(15);
        List<int[]> hostPairs = new ArrayList<>();
        for (int i = 1; i <= hosts; i++) {
            for (int j = i + 1; j <= hosts; j++) {
                hostPairs.add(new int[]{i, j});
            }
        }
        java.util.Collections.shuffle(hostPairs, random);
        int wanted = 1 + random.nextInt(Math.min(5, hostPairs.size()));
        Set<Integer> qpns = new HashSet<>();
        int total = 0;
        for (int k = 0; k < wanted && total < 20; k++) {
            int[] hp = hostPairs.get(k);
            Host x = Host.numbered(hp[0]);
            Host y = Host.numbered(hp[1]);
            int qpPairs = 1 + random.nextInt(8);
            Set<Integer> ports = new HashSet<>();
            for (int n = 0; n < qpPairs && total < 20; n++, total++) {
                boolean swap = random.nextBoolean();
                Host a = swap ? y : x;
                Host b = swap ? x : y;
                int kind = random.nextInt(100);
                Service service = kind < 74 ? Service.RC : kind < 87 ? Service.UC : Service.UD;
                int qpnA;
                int qpnB;
                int port;
                do {
                    qpnA = newQpn(random, qpns);
                    qpnB = newQpn(random, qpns);
                    port = udpSourcePort(qpnA, qpnB);
                } while (!ports.add(port));
                int w = random.nextInt(8);
                Wire wire = switch (w) {
                    case 0, 1, 2, 3 -> Wire.of(Encap.ROCE_V2_IPV4);
                    case 4, 5 -> Wire.of(Encap.ROCE_V2_IPV6);
                    case 6 -> Wire.vlan(Encap.ROCE_V2_IPV4, 1 + random.nextInt(4094), random.nextInt(8));
                    default -> Wire.vlan(Encap.ROCE_V2_IPV6, 1 + random.nextInt(4094), random.nextInt(8));
                };
                int pmtu = 256 << random.nextInt(5);
                boolean cm = service == Service.RC && random.nextInt(5) < 2;
                boolean both = service != Service.UD && random.nextInt(5) < 2;
                traffic.addPair(service, a, b, qpnA, qpnB, port, wire, pmtu, cm, both, startPsn(random),
                        startPsn(random));
            }
        }
    }

    private static int startPsn(Random random) {
        return random.nextInt(5) == 0 ? 0xFFFFFF - random.nextInt(48) : random.nextInt(1 << 24);
    }

    private static int newQpn(Random random, Set<Integer> used) {
        while (true) {
            int qpn = 0x100 + random.nextInt(0xFF00);
            if (used.add(qpn)) {
                return qpn;
            }
        }
    }

    /**
     * One UDP source port per QP pair, from both QPNs, the same in both directions: a 20-bit flow
     * label folded from the product of the two QPNs, then folded to 14 bits in the dynamic range, as
     * Linux RoCEv2 derives it.
     */
    static int udpSourcePort(int qpnA, int qpnB) {
        long v = (long) qpnA * qpnB;
        v ^= (v >>> 20) ^ (v >>> 40);
        int label = (int) (v & 0xFFFFF);
        return 0xC000 | ((label & 0x3FFF) ^ (label >>> 14));
    }
}

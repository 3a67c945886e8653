package io.rdmascope.samples;

import io.rdmascope.proto.ib.Service;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

/**
 * What a scenario plays on: hosts, the wire between them, the capture being written, the truth
 * being recorded and the one random source everything draws from (so a seed fixes every byte).
 */
public final class Fabric {
    final Random random;
    final Trace trace;
    final TruthLog truth = new TruthLog();
    Wire wire;
    private final Set<Integer> qpns = new HashSet<>();

    Fabric(long seed, Wire wire, long startNanos) {
        this.random = new Random(seed);
        this.trace = new Trace(startNanos, random);
        this.wire = wire;
    }

    public Host host(int n) {
        return Host.numbered(n);
    }

    /** Switches the encapsulation for connections made from now on. */
    public void use(Wire newWire) {
        this.wire = newWire;
    }

    public Connection rc(Host requester, Host responder, int pmtu) {
        return new Connection(this, Service.RC, requester, responder, pmtu);
    }

    public Connection uc(Host requester, Host responder, int pmtu) {
        return new Connection(this, Service.UC, requester, responder, pmtu);
    }

    /** An XRC initiator QP on {@code requester} talking to a target QP (and SRQ) on {@code responder}. */
    public Connection xrc(Host requester, Host responder, int pmtu) {
        return new Connection(this, Service.XRC, requester, responder, pmtu);
    }

    public Datagrams ud(Host sender, Host receiver, int pmtu) {
        return new Datagrams(this, sender, receiver, pmtu);
    }

    /** A Mellanox DC initiator on {@code initiator} writing to a DC target on {@code target} (docs/dc.md). */
    public DcTraffic dc(Host initiator, Host target, int pmtu) {
        return new DcTraffic(this, initiator, target, pmtu);
    }

    /** Records an observation (and the finding it raises) the connection helpers do not make themselves. */
    public void observe(Expected kind, Integer frame, Connection c, Integer psn, String detail) {
        truth.observe(kind, frame, c == null ? null : c.id(), psn, detail);
    }

    public Trace trace() {
        return trace;
    }

    /** Application think time between messages. */
    public void idle() {
        trace.idle();
    }

    /** Waits exactly this long (a timer running out, say). */
    public void pause(long nanos) {
        trace.pause(nanos);
    }

    /** A QP number as verbs hands them out: 24 bits, never 0 or 1 (SMI, GSI), unique in the scenario. */
    int newQpn() {
        while (true) {
            int qpn = 0x100 + random.nextInt(0xFF00);
            if (qpns.add(qpn)) {
                return qpn;
            }
        }
    }

    byte[] payload(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    static String macText(byte[] mac) {
        return Gids.mac(mac);
    }
}

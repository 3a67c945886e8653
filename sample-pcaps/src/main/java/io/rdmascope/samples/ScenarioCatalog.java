package io.rdmascope.samples;

import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.samples.Connection.Fate;
import io.rdmascope.samples.Connection.Msg;
import io.rdmascope.samples.Wire.Encap;
import io.rdmascope.samples.iwarp.IwarpScenarios;

import java.util.List;
import java.util.function.Consumer;

/**
 * Every committed scenario: a small capture whose truth we know, one behaviour or fault each.
 * Timers follow the values a scenario's CM exchange (or librdmacm's defaults) would set.
 */
public final class ScenarioCatalog {
    /** The local ACK timeout every scenario's requester uses (CM REQ announces it where there is CM). */
    private static final long ACK_TIMEOUT_NANOS = Connection.ACK_TIMEOUT_NANOS;
    /** RNR timer code 14: 1.28 ms (IBTA table 45; rc-transport-rules R3.4). */
    private static final int RNR_TIMER_CODE = 14;
    private static final long RNR_TIMER_NANOS = 1_280_000L;

    private ScenarioCatalog() {
    }

    /** Output container of a scenario's capture. */
    public enum Format {
        PCAP("pcap"), PCAPNG("pcapng"), ERF("erf");

        final String extension;

        Format(String extension) {
            this.extension = extension;
        }

        /** File name extension, without the dot. */
        public String extension() {
            return extension;
        }
    }

    /** A committed scenario: its name, why it exists, its seed, container, wire and script. */
    public record Scenario(String name, String description, long seed, Format format, Wire wire,
                           Consumer<Fabric> script) {
    }

    private static final Wire V2 = Wire.of(Encap.ROCE_V2_IPV4);

    public static List<Scenario> all() {
        return List.of(
                new Scenario("rc_send", "RC SEND Only, First/Middle/Last, with immediate and with invalidate; "
                        + "per-message ACKs and one coalesced ACK whose MSN jumps by three.",
                        11, Format.PCAPNG, V2, ScenarioCatalog::rcSend),
                new Scenario("rc_write", "RC RDMA WRITE Only, First/Middle/Last, with immediate, and zero-length.",
                        12, Format.PCAPNG, V2, ScenarioCatalog::rcWrite),
                new Scenario("rc_read", "RC RDMA READ answered by responses Only and First/Middle/Last, a zero-length "
                        + "READ, and three READs outstanding at once.", 13, Format.PCAPNG, V2, ScenarioCatalog::rcRead),
                new Scenario("rc_atomics", "Compare-and-swap and fetch-and-add with atomic acknowledges, two outstanding; "
                        + "FLUSH and ATOMIC WRITE answered by zero-length READ responses.", 14, Format.PCAPNG, V2,
                        ScenarioCatalog::rcAtomics),
                new Scenario("rc_loss_nak", "A WRITE packet lost before the capture point, NAK PSN sequence error and "
                        + "go-back-N; a packet lost after the capture point; a fabric duplicate re-ACKed.",
                        15, Format.PCAPNG, V2, ScenarioCatalog::rcLossNak),
                new Scenario("capture_gap", "A WRITE packet the responder received but the capture missed (mirror "
                        + "overrun): ACKed, never retransmitted.", 43, Format.PCAPNG, V2, ScenarioCatalog::captureGap),
                new Scenario("rc_ack_timeout", "A lost ACK and a lost tail packet, each recovered by the requester's "
                        + "local ACK timeout (67 ms) and a retransmission.", 16, Format.PCAPNG, V2,
                        ScenarioCatalog::rcAckTimeout),
                new Scenario("rc_rnr", "RNR NAK for a SEND with no receive posted, and the retry after the RNR timer.",
                        17, Format.PCAPNG, V2, ScenarioCatalog::rcRnr),
                new Scenario("rc_incomplete", "A READ and a WRITE never answered while traffic goes on past the ACK "
                        + "timeout (never completed), and a SEND the capture stops before answering.", 42, Format.PCAPNG, V2, ScenarioCatalog::rcIncomplete),
                new Scenario("rc_retry_exhausted", "RNR retries exhausted (rnr_retry 2) and transport retries "
                        + "exhausted (retry_cnt 3): both QPs end in the error state.", 18, Format.PCAPNG, V2,
                        ScenarioCatalog::rcRetryExhausted),
                new Scenario("rc_fatal_naks", "The three fatal NAKs: remote access error, invalid request, remote "
                        + "operational error, each ending its connection.", 19, Format.PCAPNG, V2,
                        ScenarioCatalog::rcFatalNaks),
                new Scenario("psn_wrap", "PSN wraps from 0xFFFFFF to 0 inside a multi-packet WRITE and inside a READ's "
                        + "response range.", 20, Format.PCAPNG, V2, ScenarioCatalog::psnWrap),
                new Scenario("congestion_ecn", "ECN CE marks on WRITE data and the CNPs the receiving NIC sends back.",
                        21, Format.PCAPNG, V2, ScenarioCatalog::congestionEcn),
                new Scenario("uc_ud_xrc", "UC WRITE and SEND (one dropped for a lost middle packet), UD datagrams with "
                        + "DETH, and XRC SEND and READ naming an XRC SRQ.", 22, Format.PCAPNG, V2,
                        ScenarioCatalog::ucUdXrc),
                new Scenario("cm_lifecycle", "CM REQ/REP/RTU, data, DREQ/DREP; and a REQ rejected with REJ.",
                        23, Format.PCAPNG, V2, ScenarioCatalog::cmLifecycle),
                new Scenario("roce_v2_ipv6", "RoCEv2 over IPv6, in a classic pcap.", 24, Format.PCAP,
                        Wire.of(Encap.ROCE_V2_IPV6), ScenarioCatalog::basicExchange),
                new Scenario("roce_v2_vlan", "RoCEv2 over IPv4 in 802.1Q VLAN 100, priority 3 (the PFC class).",
                        25, Format.PCAPNG, Wire.vlan(Encap.ROCE_V2_IPV4, 100, 3), ScenarioCatalog::basicExchange),
                new Scenario("roce_v1", "RoCEv1: ethertype 0x8915, GRH, no IP or UDP.", 26, Format.PCAP,
                        Wire.of(Encap.ROCE_V1), ScenarioCatalog::basicExchange),
                new Scenario("native_ib", "Native InfiniBand (link type 247): LRH-only traffic and one connection "
                        + "with a GRH, with VCRCs.", 27, Format.PCAP, Wire.of(Encap.IB_LOCAL), ScenarioCatalog::nativeIb),
                new Scenario("native_ib_erf", "Native InfiniBand in an ERF file (record type 21), as Endace and "
                        + "ibdump-to-ERF pipelines write it.", 28, Format.ERF, Wire.of(Encap.IB_LOCAL),
                        ScenarioCatalog::basicExchange),
                new Scenario("dc_traffic", "Mellanox Dynamically Connected (issue 16) as a ConnectX NIC sends it "
                        + "over RoCEv2: a DC connect carrying the access key and the DCT's answer, a three-packet "
                        + "WRITE and an 8-byte WRITE, acknowledged; DCETH, RDETH, DETH and RETH where the real "
                        + "capture has them.", 72, Format.PCAP, V2, ScenarioCatalog::dcTraffic),
                new Scenario("violation_bad_icrc", "A WRITE packet with a corrupt ICRC: the responder drops it, NAKs the "
                        + "next, and the requester goes back.", 31, Format.PCAPNG, V2, ScenarioCatalog::badIcrc),
                new Scenario("violation_bad_vcrc", "Native IB: a packet with a corrupt VCRC dropped by the link, NAK and "
                        + "go-back-N.", 32, Format.PCAP, Wire.of(Encap.IB_LOCAL), ScenarioCatalog::badVcrc),
                new Scenario("violation_missing_first", "An RDMA WRITE MIDDLE with no FIRST before it: NAK invalid request.",
                        33, Format.PCAPNG, V2, ScenarioCatalog::missingFirst),
                new Scenario("violation_missing_last", "A SEND ONLY while a WRITE is still open: NAK invalid request.",
                        34, Format.PCAPNG, V2, ScenarioCatalog::missingLast),
                new Scenario("violation_payload_over_pmtu", "A WRITE ONLY carrying more than the path MTU.",
                        35, Format.PCAPNG, V2, ScenarioCatalog::payloadOverPmtu),
                new Scenario("violation_short_non_final", "A WRITE FIRST shorter than the path MTU.",
                        36, Format.PCAPNG, V2, ScenarioCatalog::shortNonFinal),
                new Scenario("violation_dma_length", "A WRITE whose packets total less than its RETH DMA length.",
                        37, Format.PCAPNG, V2, ScenarioCatalog::dmaLengthMismatch),
                new Scenario("violation_unmatched_read_response", "A READ RESPONSE ONLY that answers no READ request.",
                        38, Format.PCAPNG, V2, ScenarioCatalog::unmatchedReadResponse),
                new Scenario("violation_ack_unsent_psn", "An ACK for a PSN the requester never sent.",
                        39, Format.PCAPNG, V2, ScenarioCatalog::ackOfUnsentPsn),
                new Scenario("violation_pad_count", "A WRITE ONLY of 6 bytes whose BTH pad count says 0, not 2.",
                        40, Format.PCAPNG, V2, ScenarioCatalog::wrongPadCount),
                new Scenario("violation_truncated", "A WRITE packet the capture cut to 96 bytes (snap length).",
                        41, Format.PCAPNG, V2, ScenarioCatalog::truncated),
                // ---- connections that break (issue 15): what the wire shows when a requester goes wrong ----
                new Scenario("broken_psn_reuse", "After a 3-packet READ, the requester sends a SEND reusing the "
                        + "READ's last response PSN; the responder answers with an ACK for a PSN never sent, the "
                        + "SEND is resent once, then nothing moves until the capture ends seconds later.",
                        61, Format.PCAPNG, V2, ScenarioCatalog::brokenPsnReuse),
                new Scenario("broken_stall_disconnect", "The same PSN reuse, then 9 s of silence and a CM "
                        + "DisconnectRequest with the SEND still unacknowledged.", 62, Format.PCAPNG, V2,
                        ScenarioCatalog::brokenStallDisconnect),
                new Scenario("violation_msn_inconsistent", "A responder whose ACK MSN jumps by three over one "
                        + "PSN, and then goes back.", 64, Format.PCAPNG, V2, ScenarioCatalog::msnInconsistent),
                new Scenario("broken_teardown_outstanding", "A WRITE and a READ outstanding when the requester "
                        + "disconnects (CM DREQ) a millisecond later: both fail.", 63, Format.PCAPNG, V2,
                        ScenarioCatalog::brokenTeardownOutstanding),
                // ---- iWARP over TCP (issue 8); the wire is unused: iWARP frames are Ethernet/IP/TCP ----
                new Scenario("iwarp_rdma_ops", "iWARP Sends (with SE, with Invalidate), Writes and Reads, one FPDU "
                        + "per segment, MPA CRCs, no markers; TCP ACKs complete Sends and Writes.", 51, Format.PCAP, V2,
                        IwarpScenarios::rdmaOperations),
                new Scenario("iwarp_markers", "MPA markers both ways with CRCs: FPDUs crossing markers, a marker "
                        + "before a CRC, two FPDUs in one segment and one FPDU across two.", 52, Format.PCAP, V2,
                        IwarpScenarios::markers),
                new Scenario("iwarp_segmentation", "No CRCs, markers towards the initiator only, MPA revision 2 with "
                        + "IRD/ORD and a zero-length RTR; FPDUs cut and packed across segments.", 53, Format.PCAP, V2,
                        IwarpScenarios::segmentation),
                new Scenario("iwarp_markers_real", "MPA markers as a real sender (the OSC iWARP stack) places them: "
                        + "a marker clock that skips each CRC field, FPDUPTR little-endian; Writes, a Read.", 71,
                        Format.PCAP, V2, IwarpScenarios::markersReal),
                new Scenario("iwarp_tcp_recovery", "iWARP under TCP recovery: a segment lost before the capture "
                        + "point (fast retransmit), one lost after it (RTO), one reordered.", 54, Format.PCAP, V2,
                        IwarpScenarios::tcpRecovery),
                new Scenario("iwarp_capture_gap", "iWARP over IPv6: a Write segment received but missing from the "
                        + "capture; MPA framing found again after the hole.", 55, Format.PCAP, V2,
                        IwarpScenarios::captureGap),
                new Scenario("iwarp_terminate", "A Send with an out-of-order MSN answered by a Terminate; the "
                        + "connection errs and the outstanding Read fails.", 56, Format.PCAP, V2,
                        IwarpScenarios::terminate),
                new Scenario("iwarp_violations", "A bad MPA CRC, a misplaced marker, a Send on queue 3, a message "
                        + "offset skip, an unasked Read Response, and a Send never acknowledged.", 57, Format.PCAP,
                        V2, IwarpScenarios::violations),
                new Scenario("iwarp_reject", "An MPA Request of revision 3 answered by a Reply that rejects the "
                        + "connection.", 58, Format.PCAP, V2, IwarpScenarios::reject),
                new Scenario("iwarp_shared_msn", "A real iWARP NIC's ways (issue 16): one MSN counter across "
                        + "queues and little-endian Read Requests answered at the byte-reversed sink; every message "
                        + "completes.", 59, Format.PCAP, V2, IwarpScenarios::sharedMsn),
                // ---- capture artifacts told apart from traffic faults (issue 15) ----
                new Scenario("capture_icrc_not_verifiable", "UC SENDs both ways captured through a NIC-offload "
                        + "sniffer: no frame's ICRC verifies, one capture finding instead of an error per frame.",
                        61, Format.PCAP, V2, ScenarioCatalog::icrcNotVerifiable),
                new Scenario("capture_frames_cut_silently", "4 KB WRITEs whose frames the capture tool cut to 243 "
                        + "bytes while recording 243 bytes on the wire: shorter than their IP and UDP lengths.",
                        62, Format.PCAP, V2, ScenarioCatalog::framesCutSilently),
                new Scenario("violation_headers_cut", "A snap length of 56 bytes cuts an ACK inside its AETH: the "
                        + "capture cannot show what it acknowledged; the next ACK covers it.", 63, Format.PCAPNG, V2,
                        ScenarioCatalog::headersCut),
                new Scenario("violation_pad_misaligned", "A SEND ONLY of 6 bytes sent with no pad bytes: payload "
                        + "plus pad is not a multiple of 4.", 64, Format.PCAPNG, V2, ScenarioCatalog::padMisaligned),
                // ---- storage protocols on RoCEv2 (issue 19): truth.json lists the operations and planted errors ----
                new Scenario("ulp_nvmeof", "NVMe-oF on RoCEv2: admin and I/O queues by CM for port 4420 with "
                        + "their private data; Connect, Property Get/Set, Identify, Set Features; Writes the "
                        + "controller RDMA READs, Reads it RDMA WRITEs; a failed Read, a CID reused while "
                        + "outstanding, data outside the command's buffer, a completion for no command, a Read "
                        + "unanswered at teardown and a Keep Alive unanswered at capture end.", 81, Format.PCAPNG, V2,
                        NvmeOfScenario::script),
                new Scenario("ulp_iser", "iSER on RoCEv2: CM for port 3260, Login, READs the target RDMA WRITEs "
                        + "into the initiator's Read STag, a WRITE it RDMA READs, a READ(16) ended with CHECK "
                        + "CONDITION, NOP-Out/In; a task tag reused while outstanding, data outside the command's "
                        + "buffer, a response for no task, a READ unanswered at teardown.", 82, Format.PCAPNG, V2,
                        IserScenario::script),
                new Scenario("ulp_rpcrdma", "NFSv3 on RPC-over-RDMA on RoCEv2: CM for port 20049, NULL, GETATTR, "
                        + "a READ into a write chunk, a WRITE from a read chunk, READDIRPLUS through a reply chunk, "
                        + "a LOOKUP failing NFS3ERR_NOENT; a credit overrun, an XID reused while outstanding, data "
                        + "outside the chunk, a reply to no call, a call unanswered at teardown.", 83, Format.PCAPNG,
                        V2, RpcRdmaScenario::script),
                new Scenario("ulp_smbdirect", "SMB3 over SMB Direct on RoCEv2: CM for port 5445, SMBD negotiate, "
                        + "SMB2 NEGOTIATE, SESSION_SETUP, TREE_CONNECT, a failed and a good CREATE, READ and WRITE "
                        + "over RDMA channel descriptors; a send-credit overrun, a message id reused while "
                        + "outstanding, data outside the descriptor's buffer, a response to no request, an ECHO "
                        + "unanswered at teardown.", 84, Format.PCAPNG, V2, SmbDirectScenario::script));
    }

    public static Scenario byName(String name) {
        for (Scenario s : all()) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    // ---- normal traffic ---------------------------------------------------------------------------------

    static void rcSend(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(200));
        sendAndAck(f, c, c.send(2_500));
        sendAndAck(f, c, c.sendWithImmediate(64, 0x12345678L));
        sendAndAck(f, c, c.sendWithImmediate(1_500, 0xCAFEF00DL));
        sendAndAck(f, c, c.sendWithInvalidate(128, 0x00ABCDEFL));
        sendAndAck(f, c, c.sendWithInvalidate(3_000, 0x0000BEEFL));
        // Three small SENDs back to back, acknowledged by one ACK (IBTA 9.7.5.1.2: ACKs coalesce).
        for (int i = 0; i < 3; i++) {
            c.transmit(c.send(100 + 50 * i));
        }
        c.ack();
    }

    static void rcWrite(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 4096);
        sendAndAck(f, c, c.write(512));
        sendAndAck(f, c, c.write(10_000));
        sendAndAck(f, c, c.writeWithImmediate(64, 0x1L));
        sendAndAck(f, c, c.writeWithImmediate(6_000, 0xDEADBEEFL));
        sendAndAck(f, c, c.write(0));
    }

    static void rcRead(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(3), 2048);
        readAndRespond(f, c, c.read(1_000));
        readAndRespond(f, c, c.read(7_000));
        readAndRespond(f, c, c.read(0));
        // Three READs outstanding (initiator depth ≥ 3): requests back to back, responses in order.
        Msg a = c.read(4_096);
        Msg b = c.read(100);
        Msg d = c.read(5_000);
        c.transmit(a);
        c.transmit(b);
        c.transmit(d);
        c.respondRead(a);
        c.respondRead(b);
        c.respondRead(d);
    }

    static void rcAtomics(Fabric f) {
        Connection c = f.rc(f.host(2), f.host(4), 1024);
        Msg cas = c.compareSwap(0, 1);
        c.transmit(cas);
        c.atomicAck(cas, 0);
        f.idle();
        Msg add = c.fetchAdd(5);
        c.transmit(add);
        c.atomicAck(add, 1);
        f.idle();
        // Two atomics outstanding; their acknowledges come back in order.
        Msg add2 = c.fetchAdd(1);
        Msg cas2 = c.compareSwap(7, 9);
        c.transmit(add2);
        c.transmit(cas2);
        c.atomicAck(add2, 6);
        c.atomicAck(cas2, 7);
        f.idle();
        sendAndAck(f, c, c.write(700));
        Msg flush = c.flush(700);
        c.transmit(flush);
        c.zeroLengthReadResponse(flush);
        f.idle();
        Msg atomicWrite = c.atomicWrite(0x0102030405060708L);
        c.transmit(atomicWrite);
        c.zeroLengthReadResponse(atomicWrite);
    }

    /** A little of everything, for the encapsulation scenarios. */
    static void basicExchange(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(300));
        sendAndAck(f, c, c.write(2_100));
        readAndRespond(f, c, c.read(1_500));
        Msg add = c.fetchAdd(1);
        c.transmit(add);
        c.atomicAck(add, 41);
    }

    static void nativeIb(Fabric f) {
        basicExchange(f);
        f.idle();
        f.use(Wire.of(Encap.IB_GLOBAL));
        Connection global = f.rc(f.host(3), f.host(4), 2048);
        sendAndAck(f, global, global.send(3_000));
        readAndRespond(f, global, global.read(100));
    }

    /** DC is decoded, not replayed: the truth has the conversation and no messages (docs/dc.md). */
    static void dcTraffic(Fabric f) {
        DcTraffic dc = f.dc(f.host(1), f.host(2), 1024);
        dc.connect(DcTraffic.PERFTEST_DC_KEY);
        f.idle();
        dc.write(2_500);
        f.idle();
        dc.write(8);
    }

    static void cmLifecycle(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 4096).establish();
        sendAndAck(f, c, c.send(1_000));
        sendAndAck(f, c, c.write(9_000));
        readAndRespond(f, c, c.read(4_096));
        c.disconnect();
        f.idle();
        f.rc(f.host(1), f.host(3), 4096).rejected(28); // consumer reject: nobody listening on the service
    }

    static void ucUdXrc(Fabric f) {
        Connection uc = f.uc(f.host(1), f.host(2), 1024);
        Msg w = uc.write(2_500);
        uc.transmit(w);
        uc.ucDelivered(w);
        f.idle();
        Msg lost = uc.send(2_500);
        int[] frames = uc.transmit(lost, i -> i == 1 ? Fate.LOST : Fate.DELIVERED);
        uc.ucDropped(lost, frames[2]); // IBTA 9.8.3: LAST without MIDDLE, the whole message is discarded
        f.idle();
        Msg next = uc.send(200);
        uc.transmit(next);
        uc.ucDelivered(next);
        f.idle();
        Datagrams ud = f.ud(f.host(3), f.host(4), 1024);
        ud.send(256, null);
        f.idle();
        ud.send(1_024, 0x55AA55AAL);
        f.idle();
        ud.send(12, null);
        f.idle();
        Connection xrc = f.xrc(f.host(2), f.host(4), 1024);
        sendAndAck(f, xrc, xrc.send(1_800));
        readAndRespond(f, xrc, xrc.read(3_000));
    }

    // ---- loss and recovery ------------------------------------------------------------------------------

    static void rcLossNak(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(500));
        // Packet 2 of 5 lost before the capture point: 3 draws the sequence NAK, 4 is dropped silently
        // (R2.1: one NAK until the expected PSN arrives), then the requester goes back to 2 (R3.3).
        Msg w = c.write(5 * 1024);
        int[] frames = c.transmit(w, i -> i == 2 ? Fate.LOST : Fate.DELIVERED);
        f.observe(Expected.PACKET_LOST, frames[3], c, w.packet(2).psn(), "lost before the capture point");
        c.nakSequenceError();
        c.goBackN(w.packet(2).psn(), "go-back-N after NAK");
        c.ack();
        f.idle();
        // Seen at the capture point, lost after it: the NAK names a PSN the capture holds.
        Msg s = c.send(3 * 1024);
        int[] sent = c.transmit(s, i -> i == 1 ? Fate.LOST_AFTER_CAPTURE : Fate.DELIVERED);
        f.observe(Expected.PACKET_LOST, sent[1], c, s.packet(1).psn(), "lost after the capture point");
        c.nakSequenceError();
        c.goBackN(s.packet(1).psn(), "go-back-N after NAK");
        c.ack();
        f.idle();
        // A switch duplicates a SEND ONLY; the responder re-acknowledges the duplicate (C9-105).
        Msg once = c.send(64);
        int[] original = c.transmit(once);
        c.ack();
        c.duplicate(once.packet(0), original[0]);
        c.ack();
    }

    static void captureGap(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(300));
        Msg w = c.write(4 * 1024);
        int[] frames = c.transmit(w, i -> i == 1 ? Fate.NOT_CAPTURED : Fate.DELIVERED);
        f.observe(Expected.MISSING_FROM_CAPTURE, frames[2], c, w.packet(1).psn(), "acknowledged by the responder");
        c.ack();
        f.idle();
        sendAndAck(f, c, c.send(300));
    }

    static void rcAckTimeout(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        // The responder's ACK is lost: after T_tr the requester resends; the duplicate draws a re-ACK.
        Msg w = c.write(800);
        int[] frames = c.transmit(w);
        f.pause(ACK_TIMEOUT_NANOS);
        List<Integer> resent = c.goBackN(w.firstPsn(), "local ACK timeout");
        f.observe(Expected.ACK_TIMEOUT, resent.get(0), c, w.firstPsn(), "no ACK for frame " + frames[0]);
        c.ack();
        f.idle();
        // The last packet of a WRITE is lost: nothing follows to reveal the gap, and AckReq rides only on
        // the LAST, so no ACK comes either. After T_tr the requester goes back to its oldest unacknowledged
        // PSN (R3.6): the first two packets arrive again as duplicates, the third for the first time.
        Msg tail = c.write(3 * 1024);
        c.transmit(tail, i -> i == 2 ? Fate.LOST : Fate.DELIVERED);
        f.pause(ACK_TIMEOUT_NANOS);
        List<Integer> again = c.goBackN(tail.firstPsn(), "local ACK timeout");
        f.observe(Expected.ACK_TIMEOUT, again.get(0), c, tail.firstPsn(), null);
        f.observe(Expected.PACKET_LOST, again.get(2), c, tail.packet(2).psn(), "tail packet lost before the capture point");
        c.ack();
    }

    static void rcRnr(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(100));
        Msg s = c.send(1_000);
        c.transmit(s, i -> Fate.REFUSED);
        c.rnrNak(RNR_TIMER_CODE);
        f.pause(RNR_TIMER_NANOS);
        c.goBackN(s.firstPsn(), "retry after RNR NAK");
        c.ack();
    }

    static void rcIncomplete(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.write(1_000));
        Msg read = c.read(3_000);
        int[] readFrames = c.transmit(read);
        Msg write = c.write(2_000);
        int[] writeFrames = c.transmit(write);
        c.incomplete(read, readFrames[0]);
        c.incomplete(write, writeFrames[0]);
        // Other traffic goes on for longer than the 67 ms ACK timeout, so those two will never complete;
        // the last SEND, unanswered only because the capture stops, is a note, not a warning.
        Connection other = f.rc(f.host(3), f.host(4), 1024);
        for (int i = 0; i < 3; i++) {
            sendAndAck(f, other, other.send(100));
            f.pause(40_000_000L);
        }
        Msg last = other.send(100);
        int[] lastFrames = other.transmit(last);
        other.unansweredAtEnd(last, lastFrames[0]);
    }

    static void rcRetryExhausted(Fabric f) {
        Connection rnr = f.rc(f.host(1), f.host(2), 1024).establish(7, 2);
        Msg s = rnr.send(400);
        rnr.transmit(s, i -> Fate.REFUSED);
        rnr.rnrNak(RNR_TIMER_CODE);
        int last = -1;
        for (int retry = 0; retry < 2; retry++) { // rnr_retry 2: two retries, each refused again
            f.pause(RNR_TIMER_NANOS);
            last = rnr.transmit(s.packet(0), Fate.REFUSED, null);
            f.observe(Expected.RETRANSMISSION, last, rnr, s.firstPsn(), "retry after RNR NAK");
            rnr.rnrNak(RNR_TIMER_CODE);
        }
        rnr.gaveUp(s, Expected.RNR_RETRY_EXHAUSTED, last);
        f.idle();
        // Transport retries: the responder is gone; retry_cnt 3 means four transmissions, T_tr apart.
        Connection gone = f.rc(f.host(1), f.host(3), 1024).establish(3, 7);
        sendAndAck(f, gone, gone.send(256));
        Msg w = gone.write(600);
        int first = gone.transmit(w.packet(0), Fate.LOST_AFTER_CAPTURE, null);
        int lastTry = first;
        for (int retry = 0; retry < 3; retry++) {
            f.pause(ACK_TIMEOUT_NANOS);
            lastTry = gone.transmit(w.packet(0), Fate.LOST_AFTER_CAPTURE, null);
            f.observe(Expected.RETRANSMISSION, lastTry, gone, w.firstPsn(), "local ACK timeout");
            f.observe(Expected.ACK_TIMEOUT, lastTry, gone, w.firstPsn(), null);
        }
        gone.gaveUp(w, Expected.RETRY_EXHAUSTED, lastTry);
    }

    static void rcFatalNaks(Fabric f) {
        // Remote access error: a WRITE with an R_Key the responder does not know (R2.4).
        Connection access = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, access, access.send(128));
        Msg bad = access.write(512);
        access.transmit(bad, i -> Fate.REFUSED);
        access.fatalNak(2, bad);
        f.idle();
        // Invalid request: a READ to a QP that does not allow remote reads.
        Connection invalid = f.rc(f.host(1), f.host(3), 1024);
        Msg read = invalid.read(200);
        invalid.transmit(read, i -> Fate.REFUSED);
        invalid.fatalNak(1, read);
        f.idle();
        // Remote operational error: the responder failed its own receive WQE.
        Connection op = f.rc(f.host(2), f.host(3), 1024);
        Msg s = op.send(64);
        op.transmit(s, i -> Fate.REFUSED);
        op.fatalNak(3, s);
    }

    static void psnWrap(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 256).startPsn(0xFFFFFD);
        Msg w = c.write(6 * 256);
        int[] frames = c.transmit(w);
        f.observe(Expected.PSN_WRAP, frames[3], c, 0, "0xffffff -> 0x000000 inside a WRITE");
        c.ack();
        f.idle();
        Connection r = f.rc(f.host(3), f.host(4), 256).startPsn(0xFFFFFE);
        Msg read = r.read(5 * 256);
        r.transmit(read);
        int[] responses = r.respondRead(read);
        f.observe(Expected.PSN_WRAP, responses[2], r, 0, "0xffffff -> 0x000000 inside READ responses");
        sendAndAck(f, r, r.send(100));
    }

    static void congestionEcn(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.write(4 * 1024));
        // A switch queue fills during the next WRITE: packets 3–6 leave it CE-marked; the responder's
        // NIC (the notification point) answers with CNPs, at most one per 50 µs per QP (DCQCN).
        Msg w = c.write(8 * 1024);
        long lastCnp = Long.MIN_VALUE;
        for (int i = 0; i < w.packetCount(); i++) {
            boolean marked = i >= 3 && i <= 6;
            int frame = c.transmit(w.packet(i), Fate.DELIVERED, marked ? p -> p.ecn(Wire.CE) : null);
            if (marked) {
                f.observe(Expected.ECN_CE, frame, c, w.packet(i).psn(), null);
                if (f.trace().now() - lastCnp > 50_000) {
                    c.cnpToRequester();
                    lastCnp = f.trace().now();
                }
            }
        }
        c.ack();
        f.idle();
        // A CNP with no CE mark in the capture: the mark happened after the capture point.
        Msg later = c.write(2 * 1024);
        c.transmit(later);
        c.ack();
        c.cnpToRequester();
    }

    // ---- violations -------------------------------------------------------------------------------------

    static void badIcrc(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(200));
        Msg w = c.write(3 * 1024);
        int bad = c.transmit(w.packet(0), Fate.DELIVERED, null);
        bad = c.transmit(w.packet(1), Fate.LOST_AFTER_CAPTURE, p -> p.corruptIcrc()); // IBTA 9.6.1.1: silently dropped
        f.observe(Expected.BAD_ICRC, bad, c, w.packet(1).psn(), null);
        c.transmit(w.packet(2), Fate.DELIVERED, null);
        c.nakSequenceError();
        c.goBackN(w.packet(1).psn(), "go-back-N after NAK");
        c.ack();
    }

    static void badVcrc(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(200));
        Msg s = c.send(3 * 1024);
        c.transmit(s.packet(0), Fate.DELIVERED, null);
        int bad = c.transmit(s.packet(1), Fate.LOST_AFTER_CAPTURE, p -> p.corruptVcrc()); // dropped by the next link
        f.observe(Expected.BAD_VCRC, bad, c, s.packet(1).psn(), null);
        c.transmit(s.packet(2), Fate.DELIVERED, null);
        c.nakSequenceError();
        c.goBackN(s.packet(1).psn(), "go-back-N after NAK");
        c.ack();
    }

    static void missingFirst(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.write(1_000));
        Connection.Packet middle = c.stray(Operation.RDMA_WRITE_MIDDLE, 1024);
        int frame = c.transmit(middle, Fate.REFUSED, null);
        f.observe(Expected.MISSING_FIRST, frame, c, middle.psn(), "RDMA WRITE Middle with no WRITE open");
        c.fatalNak(1, null);
    }

    static void missingLast(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(300));
        Msg open = c.unfinishedWrite(3 * 1024, 1024);
        c.transmit(open);
        Msg s = c.send(100);
        int frame = c.transmit(s.packet(0), Fate.REFUSED, null);
        f.observe(Expected.MISSING_LAST, frame, c, s.firstPsn(), "SEND Only while an RDMA WRITE is open");
        c.abandoned(open);
        c.fatalNak(1, s);
    }

    static void payloadOverPmtu(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.write(2_048)); // FIRST and LAST of 1024: what tells an observer the path MTU
        Msg w = c.writeSized(1_280, 1_280);
        int frame = c.transmit(w.packet(0), Fate.REFUSED, null);
        f.observe(Expected.PAYLOAD_OVER_PMTU, frame, c, w.firstPsn(), "1280 bytes, path MTU 1024");
        c.fatalNak(1, w);
    }

    static void shortNonFinal(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.write(2_048));
        Msg w = c.writeSized(1_500, 500, 1_000);
        int frame = c.transmit(w.packet(0), Fate.REFUSED, null);
        f.observe(Expected.SHORT_NON_FINAL_PACKET, frame, c, w.firstPsn(), "WRITE First of 500 bytes, path MTU 1024");
        c.fatalNak(1, w);
    }

    static void dmaLengthMismatch(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.write(2_048));
        Msg w = c.writeSized(5_000, 1_024, 1_024);
        c.transmit(w.packet(0), Fate.DELIVERED, null);
        int frame = c.transmit(w.packet(1), Fate.REFUSED, null);
        f.observe(Expected.DMA_LENGTH_MISMATCH, frame, c, w.packet(1).psn(), "2048 bytes carried, RETH DMA length 5000");
        c.fatalNak(1, w);
    }

    static void unmatchedReadResponse(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(400));
        c.unsolicitedReadResponse(Psn.add(c.nextPsn(), 5), 512);
    }

    static void ackOfUnsentPsn(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.write(1_500));
        int unsent = Psn.add(c.nextPsn(), 10);
        int frame = c.ack(unsent);
        f.observe(Expected.ACK_OF_UNSENT_PSN, frame, c, unsent, "newest PSN sent is " + Psn.add(c.nextPsn(), -1));
    }

    static void wrongPadCount(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.write(8));
        Msg w = c.write(6);
        int frame = c.transmit(w.packet(0), Fate.REFUSED, p -> p.set(InfiniBand.BTH_PADCNT, 0));
        f.observe(Expected.WRONG_PAD_COUNT, frame, c, w.firstPsn(), "pad count 0, RETH DMA length 6 needs 2");
        c.fatalNak(1, w);
    }

    static void truncated(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(200));
        Msg w = c.write(2 * 1024);
        c.transmit(w.packet(0), Fate.DELIVERED, null);
        c.transmitTruncated(w.packet(1), 96);
        c.ack();
    }

    static void brokenPsnReuse(Fabric f) {
        Connection bystander = f.rc(f.host(3), f.host(4), 1024);
        sendAndAck(f, bystander, bystander.send(64));
        Connection c = f.rc(f.host(1), f.host(2), 1024).startPsn(0).establish();
        psnReuse(f, c);
        // Nothing moves on c again; other traffic ends the capture 3 s later, far past c's retry budget
        // (CM REQ: 7 retries of a 67 ms timer).
        f.pause(3_000_000_000L);
        sendAndAck(f, bystander, bystander.send(64));
    }

    static void brokenStallDisconnect(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024).startPsn(0).establish();
        Msg send = psnReuse(f, c);
        f.pause(9_000_000_000L);
        int dreq = c.disconnect();
        f.observe(Expected.TORN_DOWN_WITH_OUTSTANDING, dreq, c, send.firstPsn(), "1 message outstanding");
    }

    /**
     * The broken requester of issue 15 (an FPGA RoCE stack against Soft-RoCE), on connection {@code c}
     * (CM, start PSN 0): a SEND and its ACK, a READ of three path MTUs answered at PSNs P..P+2, then a new
     * SEND at P+2, a PSN the READ already used. The responder takes it for a duplicate and answers with
     * an ACK for PSN 0xFFFFFF (the PSN before the requester's first: never sent); the requester's ACK
     * timer fires, it resends the SEND, gets the same answer, and stops. Returns that SEND, outstanding.
     */
    private static Msg psnReuse(Fabric f, Connection c) {
        sendAndAck(f, c, c.send(64));
        Msg read = c.read(3 * 1024);
        readAndRespond(f, c, read);
        Msg send = c.reusePsn(read.lastPsn()).send(128);
        int reused = c.transmit(send)[0];
        f.observe(Expected.PSN_REUSED, reused, c, send.firstPsn(), "READ PSN " + read.firstPsn() + "-"
                + read.lastPsn() + " already used it");
        int never = Psn.add(0, -1);
        int bogus = c.ack(never);
        f.observe(Expected.ACK_OF_UNSENT_PSN, bogus, c, never, null);
        f.pause(ACK_TIMEOUT_NANOS);
        int resent = c.transmit(send.packet(0), Fate.DELIVERED, null);
        f.observe(Expected.RETRANSMISSION, resent, c, send.firstPsn(), "local ACK timeout");
        f.observe(Expected.ACK_TIMEOUT, resent, c, send.firstPsn(), null);
        int bogusAgain = c.ack(never);
        f.observe(Expected.ACK_OF_UNSENT_PSN, bogusAgain, c, never, null);
        f.observe(Expected.QP_STALLED, resent, c, send.firstPsn(), "SEND unacknowledged");
        c.failed(send);
        return send;
    }

    static void msnInconsistent(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(100)); // MSN 1
        c.transmit(c.send(100));
        int jump = c.ackClaimingMsn(4); // one more message, one more PSN: MSN 2, not 4
        f.observe(Expected.MSN_INCONSISTENT, jump, c, Psn.add(c.nextPsn(), -1), "grew by 3 over 1 PSN");
        f.idle();
        c.transmit(c.send(100));
        int back = c.ackClaimingMsn(3); // at a newer PSN, lower than the 4 claimed before
        f.observe(Expected.MSN_INCONSISTENT, back, c, Psn.add(c.nextPsn(), -1), "went backwards");
    }

    static void brokenTeardownOutstanding(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024).establish();
        sendAndAck(f, c, c.send(256));
        Msg write = c.write(2_000);
        c.transmit(write);
        Msg read = c.read(1_500);
        c.transmit(read);
        f.pause(1_000_000L);
        int dreq = c.disconnect();
        f.observe(Expected.TORN_DOWN_WITH_OUTSTANDING, dreq, c, write.firstPsn(), "2 messages outstanding");
        c.failed(write);
        c.failed(read);
    }

    // ---- capture artifacts (issue 15) ---------------------------------------------------------------------

    /** As magnate3_linux-riscv-dev_uc-sg.pcap: the traffic is fine, the ICRC field of every frame is not. */
    static void icrcNotVerifiable(Fabric f) {
        Connection ab = f.uc(f.host(1), f.host(2), 1024);
        Connection ba = f.uc(f.host(2), f.host(1), 1024);
        int first = -1;
        int frames = 0;
        for (int round = 0; round < 3; round++) {
            for (Connection c : List.of(ab, ba)) {
                Msg m = c.send(1_500);
                for (int i = 0; i < m.packetCount(); i++) {
                    int frame = c.transmit(m.packet(i), Fate.DELIVERED, p -> p.corruptIcrc());
                    first = first < 0 ? frame : first;
                    frames++;
                }
                c.ucDelivered(m);
                f.idle();
            }
        }
        f.observe(Expected.ICRC_NOT_VERIFIABLE, first, null, null, "none of " + frames + " frames verifies");
    }

    /** As a UCCL capture: every data frame kept to 243 bytes, its record saying 243 on the wire. */
    static void framesCutSilently(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 4096);
        sendAndAck(f, c, c.send(200));
        Msg w = c.write(3 * 4096);
        int first = -1;
        for (int i = 0; i < w.packetCount(); i++) {
            int frame = c.transmitCutSilently(w.packet(i), 243);
            first = first < 0 ? frame : first;
        }
        c.ack();
        f.observe(Expected.FRAMES_CUT_SILENTLY, first, null, null, w.packetCount() + " frames");
    }

    static void headersCut(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        c.transmit(c.send(200));
        int cut = c.ackCut(56); // Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 = 54: two bytes of the AETH
        f.observe(Expected.HEADERS_CUT, cut, null, null, "1 frame; conversation 1");
        f.idle();
        c.transmit(c.send(200));
        c.ack();
    }

    static void padMisaligned(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 1024);
        sendAndAck(f, c, c.send(200));
        Msg s = c.send(6);
        int frame = c.transmit(s.packet(0), Fate.REFUSED, p -> p.padBytes(0));
        f.observe(Expected.PAD_MISALIGNED, frame, c, s.firstPsn(), "payload 6 + pad 0 = 6 bytes");
        c.fatalNak(1, s); // a length error: NAK invalid request (rc-transport-rules R2.3, R2.4)
    }

    // ---- helpers ----------------------------------------------------------------------------------------

    private static void sendAndAck(Fabric f, Connection c, Msg m) {
        c.transmit(m);
        c.ack();
        f.idle();
    }

    private static void readAndRespond(Fabric f, Connection c, Msg m) {
        c.transmit(m);
        c.respondRead(m);
        f.idle();
    }
}

package io.rdmascope.proto.mad;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.ib.InfiniBand;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import static io.rdmascope.proto.mad.MadFrames.bytes;
import static io.rdmascope.proto.mad.MadFrames.cm;
import static io.rdmascope.proto.mad.MadFrames.dissect;
import static io.rdmascope.proto.mad.MadFrames.hex;
import static io.rdmascope.proto.mad.MadFrames.layer;
import static io.rdmascope.proto.mad.MadFrames.present;
import static io.rdmascope.proto.mad.MadFrames.putCm;
import static io.rdmascope.proto.mad.MadFrames.roceV2Ipv4;
import static io.rdmascope.proto.mad.MadFrames.roceV2Ipv6;
import static io.rdmascope.proto.mad.MadFrames.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Connection management messages built by hand, one per attribute, read back field by field. */
class ConnectionManagementTest {

    /** A REQ as rping's active side sends it, with a non-RDMA-CM service ID unless a test sets one. */
    private static byte[] connectRequest() {
        byte[] mad = cm(Cm.ATTR_REQ);
        putCm(mad, 0, 4, 0x6ec0c56dL);                   // local comm ID
        putCm(mad, 8, 8, 0x1000000000000404L);           // service ID (not RDMA-CM)
        putCm(mad, 16, 8, 0x025056fffea77d03L);          // local CA GUID
        putCm(mad, 28, 4, 0x80010000L);                  // local Q_Key
        putCm(mad, 32, 3, 0x00002c);                     // local QPN
        putCm(mad, 35, 1, 0x10);                         // responder resources
        putCm(mad, 39, 1, 0x08);                         // initiator depth
        putCm(mad, 43, 1, (0x14 << 3) | (1 << 1) | 1);   // remote CM timeout 20, UC, end-to-end flow control
        putCm(mad, 44, 3, 0x003da6);                     // starting PSN
        putCm(mad, 47, 1, (0x12 << 3) | 6);              // local CM timeout 18, retry count 6
        putCm(mad, 48, 2, 0xffff);                       // P_Key
        putCm(mad, 50, 1, (5 << 4) | 5);                 // path MTU 4096, RNR retry count 5
        putCm(mad, 51, 1, (15 << 4) | 0x8);              // max CM retries 15, SRQ
        putCm(mad, 52, 2, 4);                            // primary local LID
        putCm(mad, 54, 2, 1);                            // primary remote LID
        putCm(mad, 56, hex("00000000000000000000ffff0a01103e"));
        putCm(mad, 72, hex("00000000000000000000ffff0a01103d"));
        putCm(mad, 88, 4, 0x70bbd030L);                  // flow label 0x70bbd, rate 0x30 in byte 91
        putCm(mad, 92, 1, 0x02);                         // traffic class
        putCm(mad, 93, 1, 0x40);                         // hop limit
        putCm(mad, 94, 1, (3 << 4) | 0x8);               // SL 3, subnet local
        putCm(mad, 95, 1, 0x11 << 3);                    // local ACK timeout 17
        return mad;
    }

    private static void rdmaCmIpv4(byte[] req) {
        putCm(req, 8, 8, 0x0000000001061c06L);           // RDMA-CM, TCP port space, port 7174
        putCm(req, 140, 1, 0x00);                        // cma_hdr version 0.0
        putCm(req, 141, 1, 0x40);                        // IP version 4
        putCm(req, 142, 2, 0xbd69);                      // source port
        putCm(req, 156, 4, 0x0a01103eL);                 // source IP in the last 4 bytes of 16
        putCm(req, 172, 4, 0x0a01103dL);                 // destination IP
        putCm(req, 176, hex("cafe"));                    // consumer private data
    }

    @Nested
    class AConnectRequest {
        private final Dissection d = dissect(roceV2Ipv4(connectRequest()));

        @Test
        void followsTheCommonHeaderAsItsOwnLayerOverTheCmData() {
            int mad = layer(d, Mad.HEADER);
            int req = layer(d, Cm.REQ);
            assertEquals(d.layerStart(mad) + 24, d.layerStart(req));
            assertEquals(232, d.layerLength(req));
            assertEquals(Cm.ATTR_REQ, value(d, Mad.HEADER, Mad.ATTRIBUTE_ID));
            assertEquals("ConnectRequest", Cm.ATTRIBUTE_NAMES.nameOf(Cm.ATTR_REQ));
            assertFalse(d.isMalformed());
        }

        @Test
        void carriesItsCommunicationIdServiceIdAndCaGuid() {
            assertEquals(0x6ec0c56dL, value(d, Cm.REQ, Cm.REQ_LOCAL_COMM_ID));
            assertEquals("infiniband.cm.req", Cm.REQ_LOCAL_COMM_ID.abbrev());
            assertEquals(0x1000000000000404L, value(d, Cm.REQ, Cm.REQ_SERVICE_ID));
            assertEquals(0x025056fffea77d03L, value(d, Cm.REQ, Cm.REQ_LOCAL_CA_GUID));
            assertEquals(0x80010000L, value(d, Cm.REQ, Cm.REQ_LOCAL_QKEY));
        }

        @Test
        void carriesTheQueuePairItsPsnAndItsRdmaResources() {
            assertEquals(0x2c, value(d, Cm.REQ, Cm.REQ_LOCAL_QPN));
            assertEquals(0x003da6, value(d, Cm.REQ, Cm.REQ_STARTING_PSN));
            assertEquals(0x10, value(d, Cm.REQ, Cm.REQ_RESPONDER_RESOURCES));
            assertEquals(0x08, value(d, Cm.REQ, Cm.REQ_INITIATOR_DEPTH));
            assertEquals(0xffff, value(d, Cm.REQ, Cm.REQ_PKEY));
            assertEquals(1, value(d, Cm.REQ, Cm.REQ_SRQ));
        }

        @Test
        void carriesTimeoutsRetryCountsPathMtuAndTransportType() {
            assertEquals(20, value(d, Cm.REQ, Cm.REQ_REMOTE_CM_RESPONSE_TIMEOUT));
            assertEquals(18, value(d, Cm.REQ, Cm.REQ_LOCAL_CM_RESPONSE_TIMEOUT));
            assertEquals(6, value(d, Cm.REQ, Cm.REQ_RETRY_COUNT));
            assertEquals(5, value(d, Cm.REQ, Cm.REQ_RNR_RETRY_COUNT));
            assertEquals(15, value(d, Cm.REQ, Cm.REQ_MAX_CM_RETRIES));
            assertEquals(5, value(d, Cm.REQ, Cm.REQ_PATH_MTU));
            assertEquals("4096", Cm.REQ_PATH_MTU.valueNames().nameOf(5));
            assertEquals(1, value(d, Cm.REQ, Cm.REQ_TRANSPORT_SERVICE_TYPE));
            assertEquals("Unreliable Connection (UC)", Cm.REQ_TRANSPORT_SERVICE_TYPE.valueNames().nameOf(1));
            assertEquals(1, value(d, Cm.REQ, Cm.REQ_E2E_FLOW_CONTROL));
        }

        @Test
        void carriesThePrimaryPath() {
            assertEquals(4, value(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_LID));
            assertEquals(1, value(d, Cm.REQ, Cm.REQ_PRIM_REMOTE_LID));
            assertEquals(0x02, value(d, Cm.REQ, Cm.REQ_PRIM_TRAFFIC_CLASS));
            assertEquals(0x40, value(d, Cm.REQ, Cm.REQ_PRIM_HOP_LIMIT));
            assertEquals(3, value(d, Cm.REQ, Cm.REQ_PRIM_SL));
            assertEquals(1, value(d, Cm.REQ, Cm.REQ_PRIM_SUBNET_LOCAL));
            assertEquals(17, value(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_ACK_TIMEOUT));
        }

        @Test
        void overIpv4ShowsItsPrimaryGidsAsIpv4AddressesAsWiresharkDoes() {
            assertEquals(0x0a01103eL, value(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_GID_IPV4));
            assertEquals(0x0a01103dL, value(d, Cm.REQ, Cm.REQ_PRIM_REMOTE_GID_IPV4));
            assertFalse(present(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_GID));
            assertFalse(present(d, Cm.REQ, Cm.REQ_PRIM_REMOTE_GID));
        }

        @Test
        void readsItsFlowLabelAndPacketRateFromTheBytesWiresharkReads() {
            // Wireshark 4.0 takes the flow label from 3 bytes under a 32-bit mask, and the rate from byte 88.
            assertEquals(0x70b, value(d, Cm.REQ, Cm.REQ_PRIM_FLOW_LABEL));
            assertEquals(0x1, value(d, Cm.REQ, Cm.REQ_PRIM_RESERVED0));
            assertEquals(0x30, value(d, Cm.REQ, Cm.REQ_PRIM_PACKET_RATE));
        }

        @Test
        void withAServiceIdOutsideRdmaCmKeepsItsPrivateDataUndecoded() {
            assertEquals(-1, d.find(Cm.IP_CM));
            assertTrue(present(d, Cm.REQ, Cm.REQ_PRIVATE));
            assertEquals(92, bytes(d, Cm.REQ, Cm.REQ_PRIVATE).length);
            assertFalse(present(d, Cm.REQ, Cm.REQ_SERVICE_ID_PREFIX));
            assertFalse(present(d, Cm.REQ, Cm.REQ_SERVICE_ID_DPORT));
        }

        @Test
        void showsBothAlternateReservedFieldsUnderWiresharksOneName() {
            assertEquals(2, Cm.REQ_ALT_RESERVED1.occurrences());
            assertEquals(138, Cm.REQ_ALT_RESERVED1.offsetOf(0));
            assertEquals(139, Cm.REQ_ALT_RESERVED1.offsetOf(1));
        }
    }

    @Test
    void overIpv6AConnectRequestKeepsItsPrimaryGidsInIpv6Form() {
        byte[] req = connectRequest();
        putCm(req, 56, hex("fe800000000000000002c9020024f636"));
        Dissection d = dissect(roceV2Ipv6(req));
        assertArrayEquals(hex("fe800000000000000002c9020024f636"), bytes(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_GID));
        assertTrue(present(d, Cm.REQ, Cm.REQ_PRIM_REMOTE_GID));
        assertFalse(present(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_GID_IPV4));
        assertFalse(present(d, Cm.REQ, Cm.REQ_PRIM_REMOTE_GID_IPV4));
    }

    @Test
    void onNativeInfinibandAConnectRequestKeepsItsPrimaryGidsInIpv6Form() {
        Dissection d = dissect(Frame.of(1, 0, LinkTypes.INFINIBAND, MadFrames.nativeIb(connectRequest())));
        assertArrayEquals(hex("00000000000000000000ffff0a01103e"), bytes(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_GID));
        assertFalse(present(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_GID_IPV4));
        assertEquals(0x2c, value(d, Cm.REQ, Cm.REQ_LOCAL_QPN));
    }

    @Nested
    class AnRdmaCmConnectRequest {
        @Test
        void splitsItsServiceIdIntoPrefixPortSpaceAndPort() {
            byte[] req = connectRequest();
            rdmaCmIpv4(req);
            Dissection d = dissect(roceV2Ipv4(req));
            assertArrayEquals(hex("0000000001"), bytes(d, Cm.REQ, Cm.REQ_SERVICE_ID_PREFIX));
            assertEquals(0x06, value(d, Cm.REQ, Cm.REQ_SERVICE_ID_PROTOCOL));
            assertEquals(0x1c06, value(d, Cm.REQ, Cm.REQ_SERVICE_ID_DPORT));
        }

        @Test
        void decodesItsIpv4PrivateDataHeaderInsteadOfPlainPrivateData() {
            byte[] req = connectRequest();
            rdmaCmIpv4(req);
            Dissection d = dissect(roceV2Ipv4(req));
            int ipCm = layer(d, Cm.IP_CM);
            assertEquals(d.layerStart(layer(d, Cm.REQ)) + 140, d.layerStart(ipCm));
            assertEquals(92, d.layerLength(ipCm));
            assertFalse(present(d, Cm.REQ, Cm.REQ_PRIVATE));
            assertEquals(4, value(d, Cm.IP_CM, Cm.IP_CM_IP_VERSION));
            assertEquals(0xbd69, value(d, Cm.IP_CM, Cm.IP_CM_SOURCE_PORT));
            assertEquals(0x0a01103eL, value(d, Cm.IP_CM, Cm.IP_CM_SOURCE_IPV4));
            assertEquals(0x0a01103dL, value(d, Cm.IP_CM, Cm.IP_CM_DESTINATION_IPV4));
            assertFalse(present(d, Cm.IP_CM, Cm.IP_CM_SOURCE_IPV6));
            assertFalse(present(d, Cm.IP_CM, Cm.IP_CM_DESTINATION_IPV6));
            byte[] consumer = bytes(d, Cm.IP_CM, Cm.IP_CM_PRIVATE);
            assertEquals(56, consumer.length);
            assertEquals((byte) 0xca, consumer[0]);
        }

        @Test
        void withIpVersion6ShowsIpv6Addresses() {
            byte[] req = connectRequest();
            rdmaCmIpv4(req);
            putCm(req, 141, 1, 0x60);
            putCm(req, 144, hex("fd000000000000000000000000000001"));
            putCm(req, 160, hex("fd000000000000000000000000000002"));
            Dissection d = dissect(roceV2Ipv6(req));
            assertEquals(6, value(d, Cm.IP_CM, Cm.IP_CM_IP_VERSION));
            assertArrayEquals(hex("fd000000000000000000000000000001"), bytes(d, Cm.IP_CM, Cm.IP_CM_SOURCE_IPV6));
            assertArrayEquals(hex("fd000000000000000000000000000002"),
                    bytes(d, Cm.IP_CM, Cm.IP_CM_DESTINATION_IPV6));
            assertFalse(present(d, Cm.IP_CM, Cm.IP_CM_SOURCE_IPV4));
        }
    }

    @Test
    void aConnectReplyCarriesBothCommunicationIdsItsQueuePairAndPsn() {
        byte[] rep = cm(Cm.ATTR_REP);
        putCm(rep, 0, 4, 0x9d88f456L);
        putCm(rep, 4, 4, 0x6ec0c56dL);
        putCm(rep, 12, 3, 0x00002b);
        putCm(rep, 20, 3, 0xfebd3d);
        putCm(rep, 24, 1, 1);
        putCm(rep, 25, 1, 2);
        putCm(rep, 26, 1, (0x0f << 3) | (1 << 1));       // target ACK delay 15, failover accepted 1
        putCm(rep, 27, 1, (7 << 5) | 0x10);              // RNR retry count 7, SRQ
        putCm(rep, 28, 8, 0x025056fffea7129fL);
        Dissection d = dissect(roceV2Ipv4(rep));
        assertEquals(0x9d88f456L, value(d, Cm.REP, Cm.REP_LOCAL_COMM_ID));
        assertEquals("infiniband.cm.rep", Cm.REP_LOCAL_COMM_ID.abbrev());
        assertEquals(0x6ec0c56dL, value(d, Cm.REP, Cm.REP_REMOTE_COMM_ID));
        assertEquals(0x2b, value(d, Cm.REP, Cm.REP_LOCAL_QPN));
        assertEquals(0xfebd3d, value(d, Cm.REP, Cm.REP_STARTING_PSN));
        assertEquals(1, value(d, Cm.REP, Cm.REP_RESPONDER_RESOURCES));
        assertEquals(2, value(d, Cm.REP, Cm.REP_INITIATOR_DEPTH));
        assertEquals(15, value(d, Cm.REP, Cm.REP_TARGET_ACK_DELAY));
        assertEquals(1, value(d, Cm.REP, Cm.REP_FAILOVER_ACCEPTED));
        assertEquals(7, value(d, Cm.REP, Cm.REP_RNR_RETRY_COUNT));
        assertEquals(1, value(d, Cm.REP, Cm.REP_SRQ));
        assertEquals(0x025056fffea7129fL, value(d, Cm.REP, Cm.REP_LOCAL_CA_GUID));
        assertEquals(196, bytes(d, Cm.REP, Cm.REP_PRIVATE).length);
        assertEquals(-1, d.find(Cm.REQ));
    }

    @Test
    void readyToUseCarriesBothCommunicationIds() {
        byte[] rtu = cm(Cm.ATTR_RTU);
        putCm(rtu, 0, 4, 0x6ec0c56dL);
        putCm(rtu, 4, 4, 0x9d88f456L);
        Dissection d = dissect(roceV2Ipv4(rtu));
        assertEquals(0x6ec0c56dL, value(d, Cm.RTU, Cm.RTU_LOCAL_COMM_ID));
        assertEquals(0x9d88f456L, value(d, Cm.RTU, Cm.RTU_REMOTE_COMM_ID));
        assertEquals(224, bytes(d, Cm.RTU, Cm.RTU_PRIVATE).length);
    }

    @Test
    void aRejectSaysWhichMessageItRejectsAndWhy() {
        byte[] rej = cm(Cm.ATTR_REJ);
        putCm(rej, 0, 4, 0x11111111L);
        putCm(rej, 4, 4, 0x22222222L);
        putCm(rej, 8, 1, 1 << 6);                        // REP rejected
        putCm(rej, 9, 1, 16 << 1);                       // 16 bytes of reject info
        putCm(rej, 10, 2, 28);                           // consumer reject
        Dissection d = dissect(roceV2Ipv4(rej));
        assertEquals(0x11111111L, value(d, Cm.REJ, Cm.REJ_LOCAL_COMM_ID));
        assertEquals(0x22222222L, value(d, Cm.REJ, Cm.REJ_REMOTE_COMM_ID));
        assertEquals(1, value(d, Cm.REJ, Cm.REJ_MESSAGE_REJECTED));
        assertEquals(16, value(d, Cm.REJ, Cm.REJ_INFO_LENGTH));
        assertEquals(28, value(d, Cm.REJ, Cm.REJ_REASON));
        assertEquals("Consumer Reject", Cm.REJ_REASON.valueNames().nameOf(28));
        assertEquals("Invalid Service ID", Cm.REJ_REASON.valueNames().nameOf(8));
        assertEquals(72, bytes(d, Cm.REJ, Cm.REJ_ARI).length);
        assertEquals(148, bytes(d, Cm.REJ, Cm.REJ_PRIVATE).length);
    }

    @Test
    void anMraSaysWhichMessageItAcknowledgesAndHowLongTheSenderNeeds() {
        byte[] mra = cm(Cm.ATTR_MRA);
        putCm(mra, 0, 4, 0x9d88f456L);
        putCm(mra, 4, 4, 0x6ec0c56dL);
        putCm(mra, 8, 1, 0 << 6);                        // the REQ
        putCm(mra, 9, 1, 23 << 3);                       // service timeout 23
        Dissection d = dissect(roceV2Ipv4(mra));
        assertEquals(0x9d88f456L, value(d, Cm.MRA, Cm.MRA_LOCAL_COMM_ID));
        assertEquals(0x6ec0c56dL, value(d, Cm.MRA, Cm.MRA_REMOTE_COMM_ID));
        assertEquals(0, value(d, Cm.MRA, Cm.MRA_MESSAGE_MRAED));
        assertEquals("REQ", Cm.MRA_MESSAGE_MRAED.valueNames().nameOf(0));
        assertEquals(23, value(d, Cm.MRA, Cm.MRA_SERVICE_TIMEOUT));
        assertEquals(222, bytes(d, Cm.MRA, Cm.MRA_PRIVATE).length);
    }

    @Test
    void aDisconnectRequestCarriesTheRemoteQueuePairUnderWiresharksReqName() {
        byte[] dreq = cm(Cm.ATTR_DREQ);
        putCm(dreq, 0, 4, 0x6ec0c56dL);
        putCm(dreq, 4, 4, 0x9d88f456L);
        putCm(dreq, 8, 3, 0x00002b);
        Dissection d = dissect(roceV2Ipv4(dreq));
        assertEquals(0x6ec0c56dL, value(d, Cm.DREQ, Cm.DREQ_LOCAL_COMM_ID));
        assertEquals(0x9d88f456L, value(d, Cm.DREQ, Cm.DREQ_REMOTE_COMM_ID));
        assertEquals(0x2b, value(d, Cm.DREQ, Cm.DREQ_REMOTE_QPN));
        assertEquals("infiniband.cm.req.remoteqpneecn", Cm.DREQ_REMOTE_QPN.abbrev());
        assertEquals(220, bytes(d, Cm.DREQ, Cm.DREQ_PRIVATE).length);
    }

    @Test
    void aDisconnectReplyCarriesBothCommunicationIdsUnderWiresharksDrspNames() {
        byte[] drep = cm(Cm.ATTR_DREP);
        putCm(drep, 0, 4, 0x9d88f456L);
        putCm(drep, 4, 4, 0x6ec0c56dL);
        Dissection d = dissect(roceV2Ipv4(drep));
        assertEquals(0x9d88f456L, value(d, Cm.DREP, Cm.DREP_LOCAL_COMM_ID));
        assertEquals(0x6ec0c56dL, value(d, Cm.DREP, Cm.DREP_REMOTE_COMM_ID));
        assertTrue(Cm.DREP_LOCAL_COMM_ID.abbrev().startsWith("infiniband.cm.drsp."));
        assertEquals(224, bytes(d, Cm.DREP, Cm.DREP_PRIVATE).length);
    }

    @Test
    void aLoadAlternatePathCarriesTheNewPath() {
        byte[] lap = cm(Cm.ATTR_LAP);
        putCm(lap, 12, 3, 0x00002b);
        putCm(lap, 15, 1, 20 << 3);
        putCm(lap, 20, 2, 7);
        putCm(lap, 22, 2, 9);
        putCm(lap, 24, hex("fe800000000000000002c9020024f636"));
        putCm(lap, 56, 4, 0x12345_0_07L);                // flow label 0x12345, traffic class 7
        putCm(lap, 60, 1, 0x40);
        putCm(lap, 61, 1, 0x03);
        putCm(lap, 62, 1, (2 << 4) | 0x8);
        putCm(lap, 63, 1, 19 << 3);
        Dissection d = dissect(roceV2Ipv4(lap));
        assertEquals(0x2b, value(d, Cm.LAP, Cm.LAP_REMOTE_QPN));
        assertEquals(20, value(d, Cm.LAP, Cm.LAP_REMOTE_CM_RESPONSE_TIMEOUT));
        assertEquals(7, value(d, Cm.LAP, Cm.LAP_ALT_LOCAL_LID));
        assertEquals(9, value(d, Cm.LAP, Cm.LAP_ALT_REMOTE_LID));
        assertArrayEquals(hex("fe800000000000000002c9020024f636"), bytes(d, Cm.LAP, Cm.LAP_ALT_LOCAL_GID));
        assertEquals(0x12345, value(d, Cm.LAP, Cm.LAP_ALT_FLOW_LABEL));
        assertEquals(7, value(d, Cm.LAP, Cm.LAP_ALT_TRAFFIC_CLASS));
        assertEquals(0x40, value(d, Cm.LAP, Cm.LAP_ALT_HOP_LIMIT));
        assertEquals(3, value(d, Cm.LAP, Cm.LAP_ALT_PACKET_RATE));
        assertEquals(2, value(d, Cm.LAP, Cm.LAP_ALT_SL));
        assertEquals(1, value(d, Cm.LAP, Cm.LAP_ALT_SUBNET_LOCAL));
        assertEquals(19, value(d, Cm.LAP, Cm.LAP_ALT_LOCAL_ACK_TIMEOUT));
        assertEquals(168, bytes(d, Cm.LAP, Cm.LAP_PRIVATE).length);
    }

    @Test
    void anAlternatePathResponseCarriesItsStatus() {
        byte[] apr = cm(Cm.ATTR_APR);
        putCm(apr, 8, 1, 4);
        putCm(apr, 9, 1, 3);
        Dissection d = dissect(roceV2Ipv4(apr));
        assertEquals(4, value(d, Cm.APR, Cm.APR_INFO_LENGTH));
        assertEquals(3, value(d, Cm.APR, Cm.APR_STATUS));
        assertEquals("Alternate path rejected", Cm.APR_STATUS.valueNames().nameOf(3));
    }

    @Test
    void serviceIdResolutionCarriesTheServiceIdAndTheAnsweringQueuePair() {
        byte[] sidrReq = cm(Cm.ATTR_SIDR_REQ);
        putCm(sidrReq, 0, 4, 0x42L);
        putCm(sidrReq, 4, 2, 0xffff);
        putCm(sidrReq, 8, 8, 0x0000000001114853L);
        Dissection req = dissect(roceV2Ipv4(sidrReq));
        assertEquals(0x42, value(req, Cm.SIDR_REQ, Cm.SIDR_REQ_REQUEST_ID));
        assertEquals(0xffff, value(req, Cm.SIDR_REQ, Cm.SIDR_REQ_PKEY));
        assertEquals(0x0000000001114853L, value(req, Cm.SIDR_REQ, Cm.SIDR_REQ_SERVICE_ID));

        byte[] sidrRep = cm(Cm.ATTR_SIDR_REP);
        putCm(sidrRep, 0, 4, 0x42L);
        putCm(sidrRep, 4, 1, 0);
        putCm(sidrRep, 8, 3, 0x000123);
        putCm(sidrRep, 12, 8, 0x0000000001114853L);
        putCm(sidrRep, 20, 4, 0x80010000L);
        Dissection rep = dissect(roceV2Ipv4(sidrRep));
        assertEquals(0x42, value(rep, Cm.SIDR_REP, Cm.SIDR_REP_REQUEST_ID));
        assertEquals(0, value(rep, Cm.SIDR_REP, Cm.SIDR_REP_STATUS));
        assertEquals(0x123, value(rep, Cm.SIDR_REP, Cm.SIDR_REP_QPN));
        assertEquals(0x0000000001114853L, value(rep, Cm.SIDR_REP, Cm.SIDR_REP_SERVICE_ID));
        assertEquals(0x80010000L, value(rep, Cm.SIDR_REP, Cm.SIDR_REP_QKEY));
    }

    @Test
    void aCmAttributeWithNoMessageLayoutGetsOnlyTheCommonHeader() {
        Dissection d = dissect(roceV2Ipv4(cm(Cm.ATTR_CLASS_PORT_INFO)));
        int mad = layer(d, Mad.HEADER);
        assertEquals(InfiniBand.ICRC_HEADER, d.layerType(mad + 1));
        for (var type : Cm.HEADERS) {
            assertEquals(-1, d.find(type), type + " should be absent");
        }
        assertEquals(232, bytes(d, Mad.HEADER, Mad.DATA).length);
    }
}

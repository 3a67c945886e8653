package io.rdmascope.proto.mad;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.Malformed;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.ib.InfiniBand;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static io.rdmascope.proto.mad.MadFrames.bytes;
import static io.rdmascope.proto.mad.MadFrames.cm;
import static io.rdmascope.proto.mad.MadFrames.cutShort;
import static io.rdmascope.proto.mad.MadFrames.dissect;
import static io.rdmascope.proto.mad.MadFrames.layer;
import static io.rdmascope.proto.mad.MadFrames.mad;
import static io.rdmascope.proto.mad.MadFrames.present;
import static io.rdmascope.proto.mad.MadFrames.put;
import static io.rdmascope.proto.mad.MadFrames.putCm;
import static io.rdmascope.proto.mad.MadFrames.roceV2Ipv4;
import static io.rdmascope.proto.mad.MadFrames.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MAD common header, RMPP, and MADs the capture or the sender cut short. */
class ManagementDatagramTest {

    @Test
    void everyMadGetsItsCommonHeaderOverAllOfItsBytes() {
        byte[] perf = mad(Mad.CLASS_PERF_MGMT, 0x01, 0x0012, 0x0000000bb9647f9eL);
        put(perf, 4, 2, 0x0004);
        put(perf, 6, 2, 0x0102);
        put(perf, 20, 4, 0x00000001L);
        perf[24] = (byte) 0xAB;
        Dissection d = dissect(roceV2Ipv4(perf));
        int mad = layer(d, Mad.HEADER);
        assertEquals(256, d.layerLength(mad));
        assertEquals(1, value(d, Mad.HEADER, Mad.BASE_VERSION));
        assertEquals(0x04, value(d, Mad.HEADER, Mad.MGMT_CLASS));
        assertEquals("Performance Management", Mad.MGMT_CLASS.valueNames().nameOf(0x04));
        assertEquals(1, value(d, Mad.HEADER, Mad.CLASS_VERSION));
        assertEquals(0x01, value(d, Mad.HEADER, Mad.METHOD));
        assertEquals("Get()", Mad.METHOD.valueNames().nameOf(0x01));
        assertEquals(0x0004, value(d, Mad.HEADER, Mad.STATUS));
        assertEquals(0x0102, value(d, Mad.HEADER, Mad.CLASS_SPECIFIC));
        assertEquals(0x0000000bb9647f9eL, value(d, Mad.HEADER, Mad.TRANSACTION_ID));
        assertEquals(0x0012, value(d, Mad.HEADER, Mad.ATTRIBUTE_ID));
        assertEquals(1, value(d, Mad.HEADER, Mad.ATTRIBUTE_MODIFIER));
        byte[] data = bytes(d, Mad.HEADER, Mad.DATA);
        assertEquals(232, data.length);
        assertEquals((byte) 0xAB, data[0]);
        assertEquals(InfiniBand.ICRC_HEADER, d.layerType(mad + 1), "nothing but the header for this class");
        assertFalse(d.isMalformed());
    }

    @Test
    void aCmMadStillShowsTheWholeDataFieldAsWiresharkDoes() {
        Dissection d = dissect(roceV2Ipv4(cm(Cm.ATTR_RTU)));
        assertEquals(232, bytes(d, Mad.HEADER, Mad.DATA).length);
        assertEquals("Send()", Mad.METHOD.valueNames().nameOf(value(d, Mad.HEADER, Mad.METHOD)));
        assertEquals("Communication Management", Mad.MGMT_CLASS.valueNames().nameOf(0x07));
    }

    @Test
    void aSubnetAdministrationMadWithoutRmppShowsItsTwoDataWords() {
        byte[] sa = mad(Mad.CLASS_SUBN_ADM, 0x01, 0x0035, 1);
        putCm(sa, 4, 4, 0x11223344L);
        putCm(sa, 8, 4, 0x55667788L);
        Dissection d = dissect(roceV2Ipv4(sa));
        int rmpp = layer(d, Mad.RMPP);
        assertEquals(12, d.layerLength(rmpp));
        assertEquals(d.layerStart(layer(d, Mad.HEADER)) + 24, d.layerStart(rmpp));
        assertEquals(Mad.RMPP_NOT_USED, value(d, Mad.RMPP, Mad.RMPP_TYPE));
        assertEquals(0x11223344L, value(d, Mad.RMPP, Mad.RMPP_DATA1));
        assertEquals(0x55667788L, value(d, Mad.RMPP, Mad.RMPP_DATA2));
        assertFalse(present(d, Mad.RMPP, Mad.RMPP_SEGMENT_NUMBER));
        assertEquals(-1, d.find(Mad.RMPP_SEGMENT));
    }

    @Test
    void anRmppDataSegmentShowsItsNumberPayloadLengthAndData() {
        byte[] sa = mad(Mad.CLASS_SUBN_ADM, 0x92, 0x0035, 1);
        putCm(sa, 0, 1, 1);                              // RMPP version
        putCm(sa, 1, 1, Mad.RMPP_DATA);
        putCm(sa, 2, 1, (0x2 << 4) | 0x3);               // resp time 2, flags active + first
        putCm(sa, 4, 4, 1);
        putCm(sa, 8, 4, 0x200);
        putCm(sa, 12, 1, 0x5A);
        Dissection d = dissect(roceV2Ipv4(sa));
        assertEquals(1, value(d, Mad.RMPP, Mad.RMPP_VERSION));
        assertEquals(2, value(d, Mad.RMPP, Mad.RMPP_RRESPTIME));
        assertEquals(3, value(d, Mad.RMPP, Mad.RMPP_FLAGS));
        assertEquals(" (Transmission Sequence - First Packet)", Mad.RMPP_FLAGS.valueNames().nameOf(3));
        assertEquals(1, value(d, Mad.RMPP, Mad.RMPP_SEGMENT_NUMBER));
        assertEquals(0x200, value(d, Mad.RMPP, Mad.RMPP_PAYLOAD_LENGTH));
        assertFalse(present(d, Mad.RMPP, Mad.RMPP_DATA1));
        assertFalse(present(d, Mad.RMPP, Mad.RMPP_NEW_WINDOW_LAST));
        byte[] transferred = bytes(d, Mad.RMPP_SEGMENT, Mad.RMPP_TRANSFERRED_DATA);
        assertEquals(220, transferred.length);
        assertEquals((byte) 0x5A, transferred[0]);
        assertFalse(present(d, Mad.RMPP_SEGMENT, Mad.RMPP_EXTENDED_ERROR_DATA));
    }

    @Test
    void anRmppAckShowsTheLastSegmentOfTheNewWindow() {
        byte[] sa = mad(Mad.CLASS_SUBN_ADM, 0x92, 0x0035, 1);
        putCm(sa, 1, 1, Mad.RMPP_ACK);
        putCm(sa, 4, 4, 3);
        putCm(sa, 8, 4, 7);
        Dissection d = dissect(roceV2Ipv4(sa));
        assertEquals(3, value(d, Mad.RMPP, Mad.RMPP_SEGMENT_NUMBER));
        assertEquals(7, value(d, Mad.RMPP, Mad.RMPP_NEW_WINDOW_LAST));
        assertFalse(present(d, Mad.RMPP, Mad.RMPP_PAYLOAD_LENGTH));
        assertEquals(-1, d.find(Mad.RMPP_SEGMENT));
    }

    @Test
    void anRmppAbortCarriesExtendedErrorData() {
        byte[] sa = mad(Mad.CLASS_SUBN_ADM, 0x92, 0x0035, 1);
        putCm(sa, 1, 1, Mad.RMPP_ABORT);
        putCm(sa, 3, 1, 126);
        Dissection d = dissect(roceV2Ipv4(sa));
        assertEquals(126, value(d, Mad.RMPP, Mad.RMPP_STATUS));
        assertEquals(" (Too Many Retries)", Mad.RMPP_STATUS.valueNames().nameOf(126));
        assertEquals(220, bytes(d, Mad.RMPP_SEGMENT, Mad.RMPP_EXTENDED_ERROR_DATA).length);
        assertFalse(present(d, Mad.RMPP_SEGMENT, Mad.RMPP_TRANSFERRED_DATA));
    }

    @Test
    void aMadCutShortByTheCaptureIsMalformedAndKeepsWhatWasCaptured() {
        byte[] frame = roceV2Ipv4(cm(Cm.ATTR_REP));
        int madStart = 14 + 20 + 8 + 12 + 8;
        Dissection d = dissect(cutShort(frame, madStart + 100, LinkTypes.ETHERNET));
        assertTrue(d.isMalformed());
        int mad = layer(d, Mad.HEADER);
        assertTrue(d.isLayerTruncated(mad));
        assertEquals(100, d.layerLength(mad));
        assertEquals(Cm.ATTR_REP, value(d, Mad.HEADER, Mad.ATTRIBUTE_ID));
        assertEquals(0x0000_0002_6dc5_c06eL, value(d, Mad.HEADER, Mad.TRANSACTION_ID));
        assertEquals(76, bytes(d, Mad.HEADER, Mad.DATA).length, "the data that was captured");
        assertEquals(-1, d.find(Cm.REP), "no CM message from a partial MAD");
        assertEquals(mad + 1, d.findNext(Malformed.HEADER, mad), "the malformed marker follows the cut MAD");
    }

    @Test
    void aMadCutInsideItsCommonHeaderShowsOnlyTheFieldsThatWereCaptured() {
        byte[] frame = roceV2Ipv4(cm(Cm.ATTR_REQ));
        int madStart = 14 + 20 + 8 + 12 + 8;
        Dissection d = dissect(cutShort(frame, madStart + 10, LinkTypes.ETHERNET));
        assertTrue(d.isMalformed());
        assertEquals(0x07, value(d, Mad.HEADER, Mad.MGMT_CLASS));
        assertFalse(present(d, Mad.HEADER, Mad.TRANSACTION_ID));
        assertFalse(present(d, Mad.HEADER, Mad.DATA));
    }

    @Test
    void aWholePacketTooShortToHoldAMadIsMalformed() {
        byte[] mad = new byte[100];
        System.arraycopy(cm(Cm.ATTR_REQ), 0, mad, 0, mad.length);
        Dissection d = dissect(roceV2Ipv4(mad));
        assertTrue(d.isMalformed());
        assertEquals(100, d.layerLength(layer(d, Mad.HEADER)));
        assertEquals(-1, d.find(Cm.REQ));
    }

    @Test
    void everyMadAndCmHeaderRegistersUnderInfiniband() {
        FieldRegistry registry = FieldRegistry.build(Mad.HEADERS);
        for (HeaderType h : Mad.HEADERS) {
            assertTrue(h.abbrev().startsWith("infiniband."), h.abbrev());
            assertEquals(InfiniBand.PROTOCOL, h.protocol());
            assertInstanceOf(FieldRegistry.HeaderEntry.class, registry.lookup(h.abbrev()));
        }
        assertInstanceOf(FieldRegistry.FieldEntry.class, FieldRegistry.standard().lookup("infiniband.cm.req"));
        assertInstanceOf(FieldRegistry.FieldEntry.class, FieldRegistry.standard().lookup("infiniband.mad.data"));
        assertInstanceOf(FieldRegistry.HeaderEntry.class, FieldRegistry.standard().lookup("infiniband.cm.req_msg"));
    }

    @Test
    void aMadLongerThan256BytesIsDecodedFromItsFirst256() {
        byte[] big = ByteBuffer.allocate(300).put(cm(Cm.ATTR_RTU)).array();
        Dissection d = dissect(roceV2Ipv4(big));
        assertEquals(256, d.layerLength(layer(d, Mad.HEADER)));
        assertTrue(d.find(Cm.RTU) >= 0);
        assertFalse(d.isMalformed());
    }
}

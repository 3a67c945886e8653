package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.RecordedOperations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** SMB2 requests and responses over SMB Direct as the operation view sees them, on the built session. */
class SmbDirectOperationsTest {
    @Test
    void anSmb2RequestAndItsResponsePairByMessageId(@TempDir Path dir) throws Exception {
        String queue = "Queue[protocol=smb_direct, name=, requesterQpn=" + SmbDirectCapture.CLIENT_QPN
                + ", responderQpn=" + SmbDirectCapture.SERVER_QPN + "]";
        assertEquals(List.of("frame 6 command " + queue + " " + SmbDirectCapture.MESSAGE_ID + " KeepAlive size 0 buffers []",
                        "frame 7 response " + queue + " " + SmbDirectCapture.MESSAGE_ID + " failure null",
                        // the WRITE reassembled from three fragments, its Length read past the captured bytes
                        "frame " + SmbDirectCapture.FRAME_LAST_FRAGMENT + " command " + queue + " "
                                + SmbDirectCapture.FRAGMENTED_MESSAGE_ID + " Write size "
                                + (SmbDirectCapture.FRAGMENTED_LENGTH - 112) + " buffers []"),
                RecordedOperations.of(new SmbDirectModule(),
                        ProtocolFixtures.dissectAll(SmbDirectCapture.write(dir, SmbDirect.PORT))));
    }

    /**
     * MS-SMBD §3.1.5.1: every Data Transfer message (credits-only and fragments included) spends one send
     * credit of its sender and grants its CreditsGranted; the Negotiate Response grants without spending.
     */
    @Test
    void everyMessageReportsItsSendCredits(@TempDir Path dir) throws Exception {
        assertEquals(List.of("frame 5 send responder free granted 10", "frame 6 send requester spends granted 1",
                        "frame 7 send responder spends granted 10", "frame 8 send requester spends granted 5",
                        "frame 9 send requester spends granted 0", "frame 10 send requester spends granted 0",
                        "frame 11 send requester spends granted 0"),
                RecordedOperations.credits(new SmbDirectModule(),
                        ProtocolFixtures.dissectAll(SmbDirectCapture.write(dir, SmbDirect.PORT))));
    }

    /**
     * With no CM exchange and {@code -d infiniband,smb_direct}: the request teaches the server's QP, the
     * response that answers its MessageId the client's, so the two pair on one queue. The oplock break
     * before them (MessageId all ones) answers nothing and teaches nothing: taken as the client's side
     * of a connection of its own, it would have kept the ECHO response off the request's queue.
     */
    @Test
    void decodeAsLearnsBothSidesFromTheTraffic(@TempDir Path dir) throws Exception {
        String queue = "Queue[protocol=smb_direct, name=, requesterQpn=" + SmbDirectCapture.CLIENT_QPN
                + ", responderQpn=" + SmbDirectCapture.SERVER_QPN + "]";
        DissectorChain chain = DissectorChain.standard().withDecodeAs(List.of(DecodeAs.parse("infiniband,smb_direct")));
        // Every frame is dissected before the extractor reads any (RecordedOperations), so even frame 2's
        // queue has the client's QP the response taught; frame by frame it is first reported unknown
        // (OperationTracker follows the queue when its requester is learnt; OpsDecodeAsTest holds that).
        assertEquals(List.of("frame 2 command " + queue + " " + SmbDirectCapture.MESSAGE_ID + " KeepAlive size 0 buffers []",
                        "frame 3 response " + queue + " " + SmbDirectCapture.MESSAGE_ID + " failure null",
                        "frame 6 command " + queue + " " + SmbDirectCapture.FRAGMENTED_MESSAGE_ID + " Write size "
                                + (SmbDirectCapture.FRAGMENTED_LENGTH - 112) + " buffers []"),
                RecordedOperations.of(new SmbDirectModule(),
                        ProtocolFixtures.dissectAll(SmbDirectCapture.writeMidStream(dir), chain)));
        // Without the rule nothing is SMB Direct there.
        assertEquals(List.of(), RecordedOperations.of(new SmbDirectModule(),
                ProtocolFixtures.dissectAll(SmbDirectCapture.writeMidStream(dir))));
    }

    @Test
    void nothingWithoutTheCmExchangeForItsPort(@TempDir Path dir) throws Exception {
        assertEquals(List.of(), RecordedOperations.of(new SmbDirectModule(),
                ProtocolFixtures.dissectAll(SmbDirectCapture.write(dir, SmbDirect.PORT + 1))));
    }
}

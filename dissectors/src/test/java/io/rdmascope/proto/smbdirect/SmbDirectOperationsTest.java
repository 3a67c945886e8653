package io.rdmascope.proto.smbdirect;

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

    @Test
    void nothingWithoutTheCmExchangeForItsPort(@TempDir Path dir) throws Exception {
        assertEquals(List.of(), RecordedOperations.of(new SmbDirectModule(),
                ProtocolFixtures.dissectAll(SmbDirectCapture.write(dir, SmbDirect.PORT + 1))));
    }
}

package io.rdmascope.dissect;

/**
 * A protocol that reads the private data of Communication Manager messages (IBTA 12.6; Wireshark's
 * {@code infiniband.mad.cm.private} heuristic list): NVMe-oF's queue parameters, iSER's and SMB
 * Direct's. Called for every CM message with the layer of the message (ConnectRequest, ConnectReply,
 * ...); it may add layers over the private data and keep what it learns for later frames.
 */
@FunctionalInterface
public interface CmPrivateData {
    void dissect(DissectorChain chain, Dissection d, int cmLayer);
}

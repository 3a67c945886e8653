package io.rdmascope.dissect;

import io.rdmascope.dissect.stream.TcpConversation;
import io.rdmascope.dissect.stream.TcpStreams;

/**
 * A protocol that may ride on a TCP connection (iWARP's MPA): offered every segment's payload
 * {@code [payloadStart, payloadEnd)} with the connection the TCP dissector just tracked (null
 * without an enclosing IP header). Returns true when the payload is its protocol's. {@code chain} is
 * the chain dissecting the frame, for its {@code --decode-as} rules.
 */
@FunctionalInterface
public interface TcpPayloadHeuristic {
    boolean dissect(DissectorChain chain, Dissection d, int tcpLayer, int payloadStart, int payloadEnd, TcpStreams tcp,
                    TcpConversation conversation);
}

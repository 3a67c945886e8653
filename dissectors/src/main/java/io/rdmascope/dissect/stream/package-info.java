/**
 * Byte streams across frames: TCP reassembly for the protocols that ride inside a TCP byte stream
 * (iWARP, issue 8), so that their PDUs decode wherever TCP cut them, and TCP's relative sequence
 * numbers (issue 17). One table of TCP connections ({@link TcpStreams}) holds both: each {@link
 * TcpConversation} keeps its directions' bases and the riding protocol's state.
 *
 * <p>Per-frame dissection is otherwise stateless ({@code DissectorChain.dissect(frame, d)}). A stream
 * needs the frames before it, in capture order: the state lives in the {@link
 * io.rdmascope.dissect.Dissection} that one thread reuses frame after frame ({@link StreamState}),
 * next to the time reference it already keeps. Anything that dissects a capture in order (the CLI's
 * {@code dissect}, the replay) therefore decodes streams without knowing about them.
 *
 * <p><b>Random access.</b> Dissecting one frame on its own (a GUI jumping to frame 900) has no stream
 * before it: a frame number at or below the previous one starts a new pass and forgets every stream,
 * so such a frame decodes what it can alone (an MPA Request or Reply, recognised by its key) and shows
 * the rest of its payload as TCP data, as Wireshark does without its first pass; its relative TCP
 * numbers count from that frame (the GUI shows raw ones for that reason). A viewer that wants
 * the stream decode for random access runs one in-order pass first and keeps what it needs per frame.
 *
 * <p><b>Bounds.</b> Connections tracked per dissection, bytes buffered out of order per direction and
 * bytes held for an incomplete PDU are all capped ({@link TcpReassembler#MAX_BUFFERED_BYTES},
 * {@link ConnectionTable}); reaching a cap gives up the oldest state, never grows without end.
 */
package io.rdmascope.dissect.stream;

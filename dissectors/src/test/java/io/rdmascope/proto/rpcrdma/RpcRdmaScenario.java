package io.rdmascope.proto.rpcrdma;

import io.rdmascope.build.CmMad;
import io.rdmascope.build.Frames;
import io.rdmascope.build.Header;
import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * An NFS/RDMA conversation over RoCEv2 built through the packet builder: the CM exchange for port
 * 20049, an NFSv3 READ with a write list and its reply, an NFSv4 COMPOUND and its reply, an
 * RDMA_NOMSG call with a read chunk and a reply chunk, and a SEND on the same connection that is no
 * transport header (version 2). The frame numbers below are 1-based, as tshark's.
 */
final class RpcRdmaScenario {
    static final byte[] MAC_CLIENT = Frames.hex("02000000000a");
    static final byte[] MAC_SERVER = Frames.hex("02000000000b");
    static final byte[] IP_CLIENT = {10, 0, 0, 1};
    static final byte[] IP_SERVER = {10, 0, 0, 2};
    static final int CLIENT_QPN = 0x2a0c;
    static final int SERVER_QPN = 0x9833;
    static final long READ_XID = 0x5e1d0001L;
    static final long COMPOUND_XID = 0x5e1d0002L;
    static final long NOMSG_XID = 0x5e1d0003L;
    static final int FRAME_READ_CALL = 3;
    static final int FRAME_READ_REPLY = 4;
    static final int FRAME_COMPOUND_CALL = 5;
    static final int FRAME_COMPOUND_REPLY = 6;
    static final int FRAME_NOMSG = 7;
    static final int FRAME_NOT_A_HEADER = 8;

    private RpcRdmaScenario() {
    }

    /** The frames, as bytes; {@code port} is the TCP port the ConnectRequest asks for. */
    static List<byte[]> frames(int port) {
        List<byte[]> out = new ArrayList<>();
        out.add(client().gsiMad(CmMad.req(new CmMad.Request(0x1001, 0x6ec0c56d, CLIENT_QPN, 0x3da6,
                CmMad.mtuCode(1024), 16, 16, 17, 7, 7, gid(IP_CLIENT), gid(IP_SERVER), port, IP_CLIENT, IP_SERVER,
                0x025056fffea77d03L))).build());
        out.add(server().gsiMad(CmMad.rep(0x1001, 0x1234, 0x6ec0c56d, SERVER_QPN, 0x55, 16, 16, 7,
                0x025056fffea7129fL)).build());
        // NFSv3 READ (procedure 6) of 4096 bytes, the data to come by RDMA WRITE into two segments.
        Xdr readCall = transport(READ_XID, 128, RpcRdma.RDMA_MSG).word(0) // no read chunk
                .word(1).word(2).segment(0x11, 1024, 0x2000).segment(0x12, 3072, 0x3000).word(0) // one write chunk
                .word(0); // no reply chunk
        call(readCall, READ_XID, 3, 6).opaque(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}).quad(0).word(4096);
        out.add(send(client(), SERVER_QPN, 1, readCall));
        Xdr readReply = transport(READ_XID, 128, RpcRdma.RDMA_MSG).word(0).word(0).word(0);
        reply(readReply, READ_XID).word(0).word(0).word(4096).word(1).word(0); // the data went by RDMA WRITE
        out.add(send(server(), CLIENT_QPN, 1, readReply));
        // NFSv4.1 COMPOUND: SEQUENCE, PUTFH, GETATTR.
        Xdr compound = transport(COMPOUND_XID, 128, RpcRdma.RDMA_MSG).word(0).word(0).word(0);
        call(compound, COMPOUND_XID, 4, 1).opaque(new byte[0]).word(1).word(3)
                .word(53).raw(new byte[16]).word(7).word(0).word(0).word(0)
                .word(22).opaque(new byte[] {9, 9, 9, 9})
                .word(9).word(1).word(0x10);
        out.add(send(client(), SERVER_QPN, 2, compound));
        Xdr compoundReply = transport(COMPOUND_XID, 128, RpcRdma.RDMA_MSG).word(0).word(0).word(0);
        reply(compoundReply, COMPOUND_XID).word(0).opaque(new byte[0]).word(1).word(53).word(0)
                .raw(new byte[16]).word(7).word(0).word(63).word(63).word(0);
        out.add(send(server(), CLIENT_QPN, 2, compoundReply));
        // RDMA_NOMSG: the call itself is read from the client (position 0), the reply goes to a reply chunk.
        Xdr nomsg = transport(NOMSG_XID, 128, RpcRdma.RDMA_NOMSG)
                .word(1).word(0).segment(0x21, 220, 0x4000).word(0)
                .word(0)
                .word(1).word(1).segment(0x22, 1024, 0x5000);
        out.add(send(client(), SERVER_QPN, 3, nomsg));
        // The same connection, a SEND whose first words look like a header but whose version is 2.
        Xdr notHeader = transport(NOMSG_XID + 1, 128, RpcRdma.RDMA_MSG).word(0).word(0).word(0);
        byte[] bad = notHeader.bytes();
        ByteBuffer.wrap(bad).putInt(4, 2);
        out.add(client().opcode(SEND_ONLY).destQp(SERVER_QPN).psn(4).payload(bad).build());
        return out;
    }

    /** Each frame dissected as one capture: one dissection's state, a fresh layer list per frame. */
    static List<Dissection> dissect(List<byte[]> frames) {
        DissectorChain chain = DissectorChain.standard();
        Dissection state = new Dissection();
        List<Dissection> out = new ArrayList<>();
        long number = 1;
        for (byte[] bytes : frames) {
            Frame f = new Frame(number, number * 1_000_000_000L, bytes.length, bytes.length, LINK_TYPE_ETHERNET, 0,
                    ByteBuffer.wrap(bytes), 0);
            number++;
            Dissection d = new Dissection();
            d.continueFrom(state);
            chain.dissect(f, d);
            out.add(d);
            state = d;
        }
        return out;
    }

    static final int LINK_TYPE_ETHERNET = 1;
    private static final int SEND_ONLY = 0x04;

    static RocePacket client() {
        return RocePacket.v2Ipv4(MAC_CLIENT, MAC_SERVER, IP_CLIENT, IP_SERVER);
    }

    static RocePacket server() {
        return RocePacket.v2Ipv4(MAC_SERVER, MAC_CLIENT, IP_SERVER, IP_CLIENT);
    }

    private static byte[] send(RocePacket from, int destQp, int psn, Xdr payload) {
        return from.opcode(SEND_ONLY).destQp(destQp).psn(psn).payload(payload.bytes()).build();
    }

    static byte[] gid(byte[] ipv4) {
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xFF;
        gid[11] = (byte) 0xFF;
        System.arraycopy(ipv4, 0, gid, 12, 4);
        return gid;
    }

    /** The transport header's fixed part through the builder's {@link Header}, with our declarations. */
    static Xdr transport(long xid, int credits, int proc) {
        byte[] header = new byte[RpcRdma.HEADER_SIZE];
        new Header(RpcRdma.HEADER, RpcRdma.HEADER_SIZE).set(RpcRdma.XID, xid).set(RpcRdma.VERS, RpcRdma.VERSION)
                .set(RpcRdma.CREDITS, credits).set(RpcRdma.PROC, proc).writeTo(header, 0);
        return new Xdr().raw(header);
    }

    /** An RPC call with AUTH_NULL credentials and verifier (RFC 5531 §9). */
    static Xdr call(Xdr x, long xid, int nfsVersion, int procedure) {
        return x.word(xid).word(RpcRdma.CALL).word(RpcRdma.RPC_VERSION).word(RpcRdma.NFS_PROGRAM).word(nfsVersion)
                .word(procedure).word(0).word(0).word(0).word(0);
    }

    /** An accepted, successful RPC reply with an AUTH_NULL verifier. */
    static Xdr reply(Xdr x, long xid) {
        return x.word(xid).word(RpcRdma.REPLY).word(0).word(0).word(0).word(0);
    }

    /** XDR, big-endian words (RFC 4506), written as the protocols' encoders do. */
    static final class Xdr {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Xdr word(long value) {
            return raw(ByteBuffer.allocate(4).putInt((int) value).array());
        }

        Xdr quad(long value) {
            return raw(ByteBuffer.allocate(8).putLong(value).array());
        }

        Xdr raw(byte[] bytes) {
            out.writeBytes(bytes);
            return this;
        }

        Xdr opaque(byte[] bytes) {
            word(bytes.length).raw(bytes);
            return raw(new byte[(4 - bytes.length % 4) % 4]);
        }

        /** An RDMA segment through the builder's {@link Header}. */
        Xdr segment(long handle, long length, long offset) {
            byte[] segment = new byte[RpcRdma.SEGMENT_SIZE];
            new Header(RpcRdma.SEGMENT, RpcRdma.SEGMENT_SIZE).set(RpcRdma.HANDLE, handle).set(RpcRdma.LENGTH, length)
                    .set(RpcRdma.OFFSET, offset).writeTo(segment, 0);
            return raw(segment);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}

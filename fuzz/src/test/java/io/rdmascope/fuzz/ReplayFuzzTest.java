package io.rdmascope.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;

/**
 * The replay engine fed well-formed RoCE packets in fuzzed order: any opcode (RC, UC, UD, XRC,
 * CNP, reserved), PSNs near each other and across the 2^24 wrap, two hosts and a few QPs each way,
 * any AETH syndrome, RETH lengths and payload sizes. Structure-aware, so the fuzzer reaches the state
 * machines instead of the parsers; whatever the sequence, replay, findings and flows never throw.
 */
class ReplayFuzzTest {
    private static final byte[][] MACS = {{2, 0, 0, 0, 0, 1}, {2, 0, 0, 0, 0, 2}};
    private static final byte[][] IPS = {{10, 0, 0, 1}, {10, 0, 0, 2}};

    @FuzzTest
    void packetSequences(FuzzedDataProvider data) {
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        ReplayResult replay = new ReplayResult();
        int basePsn = data.consumeBoolean() ? 0xFFFFF0 : data.consumeInt(0, 0xFFFFFF);
        int frames = data.consumeInt(1, 200);
        long time = 0;
        for (int i = 1; i <= frames && data.remainingBytes() > 4; i++) {
            int from = data.consumeInt(0, 1);
            RocePacket p = RocePacket.v2Ipv4(MACS[from], MACS[1 - from], IPS[from], IPS[1 - from])
                    .opcode(data.consumeInt(0, 255))
                    .destQp(data.pickValue(new int[]{1, 0x11, 0x12, 0x21}))
                    .psn((basePsn + data.consumeInt(-4, 40)) & 0xFFFFFF)
                    .ackReq(data.consumeBoolean())
                    .payload(new byte[data.pickValue(new int[]{0, 1, 6, 8, 256, 512, 1024, 1025, 4096})]);
            if (data.consumeBoolean()) {
                p.ecn(3);
            }
            trySet(p, InfiniBand.AETH_SYNDROME, data.consumeInt(0, 255));
            trySet(p, InfiniBand.AETH_MSN, data.consumeInt(0, 8));
            trySet(p, InfiniBand.RETH_DMALEN, data.pickValue(new long[]{0, 6, 256, 1000, 4096, 100_000}));
            trySet(p, InfiniBand.DETH_SRCQP, data.consumeInt(0, 3));
            if (data.consumeBoolean()) {
                trySet(p, InfiniBand.BTH_PADCNT, data.consumeInt(0, 3));
            }
            if (data.consumeInt(0, 15) == 0) {
                p.corruptIcrc();
            }
            byte[] bytes = p.build();
            time += data.consumeInt(0, 100_000_000);
            chain.dissect(Frame.of(i, time, p.linkType(), bytes), d);
            replay.accept(d);
        }
        replay.finish();
        Rules.evaluate(replay.observations(), RulesConfig.defaults());
        replay.flows();
    }

    /** Sets a field when this opcode's packet has it (the builder refuses fields a packet lacks). */
    private static void trySet(RocePacket p, io.rdmascope.field.Field field, long value) {
        try {
            p.copy().set(field, value).build();
            p.set(field, value);
        } catch (IllegalStateException | IllegalArgumentException notInThisPacket) {
            // this opcode carries no such header
        }
    }
}

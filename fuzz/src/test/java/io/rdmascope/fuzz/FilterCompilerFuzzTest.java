package io.rdmascope.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.filter.DisplayFilter;
import io.rdmascope.filter.FilterException;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.InfiniBand;

import java.nio.charset.StandardCharsets;

/**
 * Any text as a display filter: it compiles or fails with a {@link FilterException} naming a
 * column; a filter that compiles evaluates on a RoCE frame without throwing.
 */
class FilterCompilerFuzzTest {
    private static final Dissection FRAME = frame();

    private static Dissection frame() {
        byte[] bytes = RocePacket.v2Ipv4(new byte[]{2, 0, 0, 0, 0, 1}, new byte[]{2, 0, 0, 0, 0, 2},
                new byte[]{10, 0, 0, 1}, new byte[]{10, 0, 0, 2}).opcode(0x06).destQp(0x11).psn(7)
                .set(InfiniBand.RETH_DMALEN, 100).payload(new byte[100]).build();
        Dissection d = new Dissection();
        DissectorChain.standard().dissect(Frame.of(1, 0, 1, bytes), d);
        return d;
    }

    @FuzzTest
    void anyFilterText(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        DisplayFilter f;
        try {
            f = DisplayFilter.compile(text);
        } catch (FilterException expected) {
            if (expected.getMessage() == null || expected.getMessage().isBlank()) {
                throw new AssertionError("a filter error must say what is wrong");
            }
            return;
        }
        f.matches(FRAME);
    }
}

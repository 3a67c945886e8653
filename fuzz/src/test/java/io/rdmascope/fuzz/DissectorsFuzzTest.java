package io.rdmascope.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;

import java.nio.ByteBuffer;

/**
 * Any bytes as one frame of each link type the dissectors take, whole or cut by a snap length:
 * dissecting, the detail tree, the summary line and the CRC checks never throw.
 */
class DissectorsFuzzTest {
    private static final int[] LINK_TYPES = {LinkTypes.ETHERNET, LinkTypes.INFINIBAND, LinkTypes.ERF, LinkTypes.RAW,
            LinkTypes.IPV4, LinkTypes.IPV6, LinkTypes.LINUX_SLL, LinkTypes.LINUX_SLL2};

    @FuzzTest
    void anyFrame(FuzzedDataProvider data) {
        int linkType = data.pickValue(LINK_TYPES);
        int extraOnWire = data.consumeInt(0, 9000);
        byte[] bytes = data.consumeRemainingAsBytes();
        Frame frame = new Frame(1, 0, bytes.length, bytes.length + extraOnWire, linkType, 0, ByteBuffer.wrap(bytes), 0);
        Dissection d = new Dissection();
        DissectorChain.standard().dissect(frame, d);
        Checks.everythingOn(d);
    }
}

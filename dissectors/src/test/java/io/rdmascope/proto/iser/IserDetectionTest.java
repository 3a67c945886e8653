package io.rdmascope.proto.iser;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.text.PcapFixtures;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * iSER is claimed only on a queue pair whose CM exchange for port 3260 was captured: never on the
 * real captures of {@code ../shared/captures} (none carries iSER) nor on any committed sample case.
 * What it decodes, and the same exchange asking for another port, are tested on the generated
 * session (sample-pcaps {@code IserSessionTest}).
 */
class IserDetectionTest {
    @Test
    @DisplayName("no capture in ../shared/captures and no sample case is taken for iSER or iSCSI")
    void noFalsePositives() throws Exception {
        List<Path> files = new ArrayList<>(SharedFiles.allCaptures());
        files.addAll(ProtocolFixtures.sampleCaptures("ulp_iser")); // the case built to carry it
        int frames = 0;
        List<String> claimed = new ArrayList<>();
        for (Path file : files) {
            DissectorChain chain = DissectorChain.standard();
            Dissection d = new Dissection();
            for (Frame f : PcapFixtures.read(file)) {
                chain.dissect(f, d);
                frames++;
                String column = PacketSummary.of(d).protocol();
                if (hasIser(d) || column.equals(IserInfo.ISCSI_COLUMN) || column.equals(IserInfo.ISER_COLUMN)) {
                    claimed.add(file.getFileName() + " frame " + f.number());
                }
            }
        }
        assertTrue(frames > 1000, "frames dissected: " + frames);
        assertEquals(List.of(), claimed.stream().limit(10).toList());
    }

    private static boolean hasIser(Dissection d) {
        for (int i = 0; i < d.layerCount(); i++) {
            String p = d.layerType(i).protocol().abbrev();
            if (p.equals("iser") || p.equals("iscsi") || p.equals("scsi") || p.equals("scsi_sbc")) {
                return true;
            }
        }
        return false;
    }
}

package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.Tshark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.rdmascope.testsupport.ProtocolFixtures.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tshark comparison the SMB Direct tests share: every smb_direct and smb2 field both tools name
 * on every frame, and the Protocol and Info columns of the frames that carry SMB Direct, of one
 * capture dissected by {@code chain} and by tshark given {@code tsharkOptions}.
 */
final class SmbDirectParity {
    private SmbDirectParity() {
    }

    /**
     * Asserts equality and returns how many non-empty values were compared. Columns are compared on
     * the frames either tool shows as SMB Direct or SMB2 (the others' are the transport's, tested
     * elsewhere).
     */
    static int assertSameAsTshark(Path file, DissectorChain chain, List<String> tsharkOptions) throws Exception {
        Tshark.assumeInstalled();
        List<String> names = ProtocolFixtures.namesTsharkShares("smb_direct.", "smb2.");
        assertTrue(names.size() >= 25, "fields both tools name: " + names);
        List<String> columns = new ArrayList<>(names);
        columns.add("_ws.col.Protocol");
        columns.add("_ws.col.Info");
        List<String> tshark = Tshark.fields(file, tsharkOptions, columns.toArray(String[]::new));
        // Each frame's values and columns as tshark -T fields prints them, taken as the frame is dissected.
        List<List<String>> ours = ProtocolFixtures.eachFrame(file, chain, d -> {
            List<String> row = new ArrayList<>();
            names.forEach(n -> row.add(value(d, n)));
            PacketSummary.Columns c = PacketSummary.of(d);
            row.add(c.protocol());
            row.add(c.info());
            return row;
        });
        assertEquals(ours.size(), tshark.size());
        List<String> problems = new ArrayList<>();
        int compared = 0;
        for (int i = 0; i < ours.size(); i++) {
            String[] theirs = tshark.get(i).split("\t", -1);
            List<String> mine = ours.get(i);
            boolean smbDirect = isSmbDirect(mine.get(names.size())) || isSmbDirect(theirs[names.size()]);
            int checked = smbDirect ? columns.size() : names.size();
            for (int j = 0; j < checked; j++) {
                if (!mine.get(j).equals(theirs[j])) {
                    problems.add("frame " + (i + 1) + " " + columns.get(j) + ": tshark " + theirs[j] + ", ours "
                            + mine.get(j));
                }
                compared += j < names.size() && !mine.get(j).isEmpty() ? 1 : 0;
            }
        }
        assertEquals(List.of(), problems);
        return compared;
    }

    private static boolean isSmbDirect(String protocolColumn) {
        return protocolColumn.equals(SmbDirectInfo.SMBD_COLUMN) || protocolColumn.equals(SmbDirectInfo.SMB2_COLUMN);
    }
}

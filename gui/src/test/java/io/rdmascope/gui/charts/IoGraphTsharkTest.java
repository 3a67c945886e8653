package io.rdmascope.gui.charts;

import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.charts.IoGraphViewModel.Graph;
import io.rdmascope.gui.main.MainViewModel;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The I/O graph counts what {@code tshark -q -z io,stat,INTERVAL} counts on the same real captures:
 * per interval from the first frame, the frames and their bytes on the wire, the same number of
 * intervals (a last frame exactly on a boundary opens one of its own in both). Skips, saying why,
 * without tshark or without ../shared/captures.
 */
class IoGraphTsharkTest {
    private static final Path TSHARK = Path.of("/usr/bin/tshark");
    /** One io,stat row: "| 0.001 <> 0.002 |      3 |   262 |" (the last one may end at "Dur"). */
    private static final Pattern ROW = Pattern.compile("\\|\\s*[\\d.]+\\s*<>\\s*(?:[\\d.]+|Dur)\\s*\\|\\s*(\\d+)\\s*\\|\\s*(\\d+)\\s*\\|");

    @Test
    void framesAndBytesPerIntervalEqualTsharkIoStat() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(TSHARK), "SKIPPED: tshark is not installed (" + TSHARK + ")");
        for (Path capture : SharedCaptures.all()) {
            MainViewModel main = Opened.capture(capture);
            IoGraphViewModel vm = new IoGraphViewModel(io.rdmascope.gui.util.AppExecutors.sameThread(), main.index(),
                    DissectorChain.standard(), main.compiler(), main.selection());
            Graph g = vm.graph().get();
            List<long[]> rows = ioStat(capture, g.intervalNanos());
            assertFalse(rows.isEmpty(), capture.toString());
            long[] bytes = Arrays.stream(g.lines().get(0).bits()).map(b -> b / 8).toArray();
            assertEquals(rows.size(), g.intervals(), capture + ": intervals");
            assertEquals(Arrays.toString(rows.stream().mapToLong(r -> r[0]).toArray()),
                    Arrays.toString(g.lines().get(0).packets()), capture + ": frames per interval");
            assertEquals(Arrays.toString(rows.stream().mapToLong(r -> r[1]).toArray()), Arrays.toString(bytes),
                    capture + ": bytes per interval");
        }
    }

    private static List<long[]> ioStat(Path capture, long intervalNanos) throws IOException, InterruptedException {
        String seconds = BigDecimal.valueOf(intervalNanos).movePointLeft(9).stripTrailingZeros().toPlainString();
        Process p = new ProcessBuilder(TSHARK.toString(), "-r", capture.toString(), "-q", "-z", "io,stat," + seconds)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        List<long[]> rows = new ArrayList<>();
        Matcher m = ROW.matcher(out);
        while (m.find()) {
            rows.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
        }
        return rows;
    }
}

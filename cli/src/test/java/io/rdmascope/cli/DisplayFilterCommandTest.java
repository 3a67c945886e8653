package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dissect -Y FILTER}: only the frames the filter passes are printed, in every output mode,
 * with their original numbers (as tshark); a filter that does not compile is a one-line usage error.
 */
class DisplayFilterCommandTest {
    private static final Path ROOT = Path.of(System.getProperty("rdmascope.root", ".."));
    private static final String NAK = ROOT.resolve("sample-pcaps/cases/rc_loss_nak/rc_loss_nak.pcapng").toString();
    private static final String MIXED = ROOT.resolve("sample-pcaps/captures/roce_v2_mixed.pcapng").toString();
    private static final List<String> ACKS = List.of("2", "7", "11", "15", "18", "20", "22");

    @Test
    void textModePrintsOnlyMatchingFramesWithTheirOwnNumbers() {
        Cli r = Cli.run("dissect", NAK, "-Y", "infiniband.aeth");
        assertEquals(0, r.status(), r.err());
        List<String> numbers = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            numbers.add(line.strip().split("\\s+")[0]);
            assertTrue(line.contains("RC Acknowledge"), line);
        }
        assertEquals(ACKS, numbers);
        Cli all = Cli.run("dissect", NAK);
        for (String line : r.out().split("\n")) {
            assertTrue(all.out().contains(line + "\n"), "a shown frame prints as it does unfiltered: " + line);
        }
    }

    @Test
    void fieldsModePrintsOnlyMatchingFrames() {
        Cli r = Cli.run("dissect", NAK, "-T", "fields", "-e", "frame.number", "-e", "infiniband.aeth.syndrome.opcode",
                "-E", "header=y", "-Y", "infiniband.aeth.syndrome.opcode == Nak");
        assertEquals(0, r.status(), r.err());
        assertEquals("frame.number\tinfiniband.aeth.syndrome.opcode\n7\t3\n15\t3\n", r.out());
    }

    @Test
    void jsonModeIsAValidArrayOfTheMatchingFrames() throws Exception {
        Cli r = Cli.run("dissect", NAK, "-T", "json", "-Y", "infiniband.aeth && ip.src == 10.0.0.2");
        assertEquals(0, r.status(), r.err());
        JsonNode frames = new ObjectMapper().readTree(r.out());
        List<String> numbers = new ArrayList<>();
        for (JsonNode f : frames) {
            numbers.add(f.path("_source").path("layers").path("frame").path("frame.number").asText());
        }
        assertEquals(ACKS, numbers);
        Cli none = Cli.run("dissect", NAK, "-T", "json", "-Y", "tcp");
        assertEquals(0, none.status(), none.err());
        assertEquals(0, new ObjectMapper().readTree(none.out()).size(), none.out());
    }

    @Test
    void verboseModePrintsTheTreesOfMatchingFramesOnly() {
        Cli r = Cli.run("dissect", NAK, "-V", "-x", "--display-filter", "frame.number in {3, 19}");
        assertEquals(0, r.status(), r.err());
        List<String> frames = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^Frame (\\d+): ").matcher(r.out());
        while (m.find()) {
            frames.add(m.group(1));
        }
        assertEquals(List.of("3", "19"), frames);
        assertTrue(r.out().contains("\n0000  02 1e 67"), "the hex dump follows each shown frame");
    }

    @Test
    void longAndShortOptionsAgreeAndABlankFilterShowsEverything() {
        Cli a = Cli.run("dissect", MIXED, "-Y", "infiniband.bth.opcode == 0x0c", "-T", "fields", "-e", "frame.number");
        Cli b = Cli.run("-r", MIXED, "--display-filter", "infiniband.bth.opcode == 0x0c", "-T", "fields", "-e",
                "frame.number");
        assertEquals(0, a.status(), a.err());
        assertEquals(a.out(), b.out());
        assertEquals("1 12 15 21 26 28 50 99 104 106 150 166 189 195 200 203 226 267 296",
                a.out().strip().replace('\n', ' '));
        Cli blank = Cli.run("dissect", MIXED, "-Y", "", "-T", "fields", "-e", "frame.number");
        assertEquals(300, blank.out().split("\n").length);
    }

    @Test
    void countLimitsFramesReadNotFramesShownAsInTshark() {
        Cli r = Cli.run("dissect", NAK, "-c", "3", "-Y", "infiniband.aeth", "-T", "fields", "-e", "frame.number");
        assertEquals(0, r.status(), r.err());
        assertEquals("2\n", r.out());
    }

    @Test
    void timeFieldsStillSeeEveryFrame() {
        // frame.time_delta is from the previous captured frame, shown or not (tshark's, not _displayed).
        Cli filtered = Cli.run("dissect", NAK, "-Y", "infiniband.aeth", "-T", "fields", "-e", "frame.number", "-e",
                "frame.time_delta", "-e", "frame.time_relative");
        Cli all = Cli.run("dissect", NAK, "-T", "fields", "-e", "frame.number", "-e", "frame.time_delta", "-e",
                "frame.time_relative");
        List<String> allLines = Arrays.asList(all.out().split("\n"));
        for (String line : filtered.out().split("\n")) {
            assertTrue(allLines.contains(line), line);
        }
    }

    @Test
    void aBadFilterIsOneLineUsageErrorNamingTheColumn() {
        Cli r = Cli.run("dissect", NAK, "-Y", "infiniband.aeth ==");
        assertEquals(2, r.status());
        assertEquals("", r.out());
        assertEquals("rdmascope: invalid display filter: column 19: expected a value after '=='\n", r.err());

        Cli unknown = Cli.run("dissect", NAK, "-Y", "infiniband.bth.psnx == 1", "-T", "json");
        assertEquals(2, unknown.status());
        assertEquals("", unknown.out(), "nothing is printed, not even the JSON array's bracket");
        assertEquals("rdmascope: invalid display filter: column 1: unknown field 'infiniband.bth.psnx' "
                + "(did you mean 'infiniband.bth.psn'?)\n", unknown.err());

        Cli type = Cli.run("dissect", NAK, "-Y", "ip.src == 02:1e:67:00:00:01");
        assertEquals(2, type.status());
        assertEquals(1, type.err().split("\n").length, type.err());
        assertTrue(type.err().startsWith("rdmascope: invalid display filter: column 11: ip.src is an IPv4 address"),
                type.err());
    }

    @Test
    void theFilterIsCheckedBeforeTheCaptureIsOpened() {
        Cli r = Cli.run("dissect", "/no/such/file.pcap", "-Y", "udp ==");
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("rdmascope: invalid display filter: column 7"), r.err());
    }

    @Test
    void sameFramesAsTsharkInTextMode() throws Exception {
        Tshark.assumeInstalled();
        for (String filter : List.of("infiniband.aeth.syndrome.opcode != 0", "ip.addr !== 10.0.0.1 && frame.len > 1000",
                "infiniband.bth.opcode in {6..8} and not infiniband.bth.a == 1")) {
            String theirs = Tshark.run(List.of("-r", NAK, "-Y", filter, "-T", "fields", "-e", "frame.number"));
            Cli ours = Cli.run("dissect", NAK, "-Y", filter);
            List<String> numbers = new ArrayList<>();
            for (String line : ours.out().split("\n")) {
                if (!line.isBlank()) {
                    numbers.add(line.strip().split("\\s+")[0]);
                }
            }
            assertEquals(theirs.strip().isEmpty() ? List.of() : List.of(theirs.strip().split("\n")), numbers, filter);
            assertFalse(numbers.isEmpty(), filter);
        }
    }
}

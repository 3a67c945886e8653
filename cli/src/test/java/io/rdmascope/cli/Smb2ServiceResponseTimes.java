package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.testsupport.Tshark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SMB2 service response times as tshark's {@code -z smb2,srt} and our {@code summary --json} give them, in
 * one form to compare: per command, "calls min max average sum" with the times in seconds to the
 * microsecond, as tshark prints them.
 */
final class Smb2ServiceResponseTimes {
    /** A row of tshark's {@code -z smb2,srt}: index, command, calls, min, max, average and sum of the SRT in seconds. */
    private static final Pattern SRT_ROW = Pattern.compile(
            "^\\s*\\d+\\s+(\\S+)\\s+(\\d+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s*$");

    private Smb2ServiceResponseTimes() {
    }

    /** tshark's rows for {@code file}, with {@code options} before it (skips the caller when tshark is absent). */
    static Map<String, String> tshark(String file, List<String> options) throws Exception {
        List<String> args = new ArrayList<>(options);
        args.addAll(List.of("-r", file, "-q", "-z", "smb2,srt"));
        Map<String, String> rows = new TreeMap<>();
        for (String line : Tshark.run(args).split("\n")) {
            Matcher m = SRT_ROW.matcher(line);
            if (m.matches()) {
                rows.put(m.group(1), String.join(" ", m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)));
            }
        }
        return rows;
    }

    /** Our rows with at least one call (tshark leaves out a command never answered). */
    static Map<String, String> ours(String file) throws Exception {
        Map<String, String> rows = new TreeMap<>();
        for (JsonNode row : new ObjectMapper().readTree(Cli.run("summary", "--json", file).out())
                .get("serviceResponseTimes")) {
            if (row.get("calls").asLong() > 0) {
                rows.put(row.get("opcode").asText(), row.get("calls").asText() + " " + seconds(row.get("minNanos"))
                        + " " + seconds(row.get("maxNanos")) + " " + seconds(row.get("avgNanos")) + " "
                        + seconds(row.get("sumNanos")));
            }
        }
        return rows;
    }

    private static String seconds(JsonNode nanos) {
        return String.format("%.6f", nanos.asLong() / 1e9);
    }
}

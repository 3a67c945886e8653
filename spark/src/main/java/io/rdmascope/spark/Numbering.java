package io.rdmascope.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The vantage-wide names the output uses, made on the driver from what the groups reported:
 * conversations numbered "1", "2", … per vantage in order of first frame (as the engine numbers them
 * in one capture: {@code ReplayEngine.finalConversationId}), and each vantage-wide frame number as
 * (ring file, frame number within it).
 */
final class Numbering implements Serializable {
    /** A frame as the output names it. */
    record FrameRef(String file, long frame) {
    }

    /** One conversation as a group reported it. */
    record Conversation(String vantage, String group, String provisionalId, long firstFrame) {
    }

    private final Map<String, long[]> fileStarts = new HashMap<>();
    private final Map<String, String[]> fileNames = new HashMap<>();
    private final Map<String, String> conversationIds = new HashMap<>();
    private final Map<String, Long> conversationCounts = new HashMap<>();
    private final Map<String, Long> firstFrames = new HashMap<>();

    Numbering(List<CaptureFile> files, List<Conversation> conversations) {
        Map<String, List<CaptureFile>> byVantage = new HashMap<>();
        for (CaptureFile f : files) {
            byVantage.computeIfAbsent(f.getVantage(), v -> new ArrayList<>()).add(f);
        }
        byVantage.forEach((vantage, list) -> {
            list.sort(Comparator.comparingLong(CaptureFile::getFirstFrame));
            fileStarts.put(vantage, list.stream().mapToLong(CaptureFile::getFirstFrame).toArray());
            fileNames.put(vantage, list.stream().map(CaptureFile::getName).toArray(String[]::new));
        });
        Map<String, List<Conversation>> convByVantage = new HashMap<>();
        for (Conversation c : conversations) {
            convByVantage.computeIfAbsent(c.vantage(), v -> new ArrayList<>()).add(c);
        }
        convByVantage.forEach((vantage, list) -> {
            // Two conversations share a first frame only within one group (a frame belongs to one host
            // pair): there the engine's creation order (its provisional number) breaks the tie, as in one capture.
            list.sort(Comparator.comparingLong(Conversation::firstFrame)
                    .thenComparingInt(c -> Integer.parseInt(c.provisionalId())));
            for (int i = 0; i < list.size(); i++) {
                Conversation c = list.get(i);
                conversationIds.put(key(vantage, c.group(), c.provisionalId()), String.valueOf(i + 1));
                firstFrames.put(key(vantage, c.group(), c.provisionalId()), c.firstFrame());
            }
            conversationCounts.put(vantage, (long) list.size());
        });
    }

    private static String key(String vantage, String group, String provisionalId) {
        return vantage + '\t' + group + '\t' + provisionalId;
    }

    /** The vantage-wide id of a group's conversation, or null for null. */
    String conversation(String vantage, String group, String provisionalId) {
        if (provisionalId == null) {
            return null;
        }
        String id = conversationIds.get(key(vantage, group, provisionalId));
        if (id == null) {
            throw new IllegalStateException("conversation " + provisionalId + " of " + vantage + " / " + group
                    + " was not reported");
        }
        return id;
    }

    /** The first frame (vantage-wide) of a group's conversation. */
    long firstFrame(String vantage, String group, String provisionalId) {
        return firstFrames.get(key(vantage, group, provisionalId));
    }

    /** Conversations of the vantage over all its groups. */
    long conversationCount(String vantage) {
        return conversationCounts.getOrDefault(vantage, 0L);
    }

    /** Where vantage-wide frame {@code frame} lies. */
    FrameRef frame(String vantage, long frame) {
        long[] starts = fileStarts.get(vantage);
        int i = Arrays.binarySearch(starts, frame);
        if (i < 0) {
            i = -i - 2;
        }
        return new FrameRef(fileNames.get(vantage)[i], frame - starts[i] + 1);
    }
}

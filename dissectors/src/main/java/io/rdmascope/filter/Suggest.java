package io.rdmascope.filter;

import io.rdmascope.field.FieldRegistry;

import java.util.ArrayList;
import java.util.List;

/** The known name closest to a misspelt one, for "did you mean …" in error messages. */
final class Suggest {
    private Suggest() {
    }

    /** The unique closest name within a few edits of {@code name}, or null. */
    static String closest(String name, FieldRegistry registry, List<? extends FilterFieldProvider> providers) {
        List<String> names = new ArrayList<>();
        for (FieldRegistry.Entry e : registry.entries()) {
            names.add(e.abbrev());
        }
        for (FilterFieldProvider p : providers) {
            names.addAll(p.names());
        }
        int limit = Math.max(1, Math.min(3, name.length() / 6));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        boolean tie = false;
        for (String candidate : names) {
            if (Math.abs(candidate.length() - name.length()) > limit) {
                continue;
            }
            int dist = distance(name, candidate);
            if (dist < bestDistance) {
                best = candidate;
                bestDistance = dist;
                tie = false;
            } else if (dist == bestDistance && !candidate.equals(best)) {
                tie = true;
            }
        }
        return best != null && bestDistance <= limit && !tie ? best : null;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}

package io.bloomstore.cli;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The names a mistyped command or option was probably meant to be, for a "did you mean" in a usage
 * error: a name the typed word begins, or one a few keystrokes away (picocli's own suggestions
 * match only the first two letters of an option, and offer some command whatever was typed).
 */
final class Suggestions {
    private Suggestions() {
    }

    /** The names close to {@code typed}, closest first; empty when none is close enough to be a guess. */
    private static List<String> closeTo(String typed, Collection<String> names) {
        String word = bare(typed);
        if (word.isEmpty()) {
            return List.of();
        }
        int allowed = word.length() / 3;
        return names.stream()
                .filter(name -> isPrefixEitherWay(word, bare(name)) || distance(word, bare(name)) <= allowed)
                .sorted(Comparator.comparingInt((String name) -> distance(word, bare(name))).thenComparing(name -> name))
                .limit(3)
                .toList();
    }

    /** "; did you mean 'a' or 'b'?", or "" when nothing is close: the end of a usage error's first part. */
    static String didYouMean(String typed, Collection<String> names) {
        List<String> close = closeTo(typed, names);
        return close.isEmpty() ? "" : "; did you mean '" + String.join("' or '", close) + "'?";
    }

    private static boolean isPrefixEitherWay(String word, String name) {
        return word.length() >= 2 && (name.startsWith(word) || word.startsWith(name) && name.length() >= 3);
    }

    /** A name without its leading dashes and without an attached value ({@code --expect=10}). */
    private static String bare(String name) {
        int equals = name.indexOf('=');
        String withoutValue = name.startsWith("-") && equals > 0 ? name.substring(0, equals) : name;
        int start = 0;
        while (start < withoutValue.length() && withoutValue.charAt(start) == '-') {
            start++;
        }
        return withoutValue.substring(start);
    }

    /**
     * Edit distance counting an insertion, a deletion, a substitution or a swap of two neighbours
     * as one keystroke each (optimal string alignment): "contian" is two from "contains".
     */
    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j], d[i][j - 1]) + 1);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}

package io.bloomstore.bench.accuracy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Rates measured on real keys, beside their models: the lines of a key file shuffled with a fixed
 * seed and split in halves each round, the first half put, the second asked as keys never put;
 * each row sums its trials over the rounds and prints the rate with its binomial standard error.
 */
final class RealKeyRates {
    /** One round: the keys put and the keys never put, disjoint halves of the file's lines. */
    interface Round {
        void run(List<String> put, List<String> absent, boolean first) throws IOException;
    }

    /** Per row, in order: the model's rate summed over the trials, the hits and the trials. */
    private final Map<String, double[]> rows = new LinkedHashMap<>();

    /**
     * Runs {@code rounds} rounds over the distinct keys of {@code keyFile}, each with its own
     * shuffle from {@code seed}, after printing what they are.
     */
    static void rounds(Path keyFile, int rounds, long seed, Round round) throws IOException {
        List<String> keys = new ArrayList<>(Files.readAllLines(keyFile, StandardCharsets.UTF_8));
        System.out.printf(Locale.ROOT, "%s: %,d keys put, %,d asked as never put, in each of %d rounds%n", keyFile,
                keys.size() / 2, keys.size() - keys.size() / 2, rounds);
        for (int r = 0; r < rounds; r++) {
            Collections.shuffle(keys, new Random(seed + r));
            round.run(keys.subList(0, keys.size() / 2), keys.subList(keys.size() / 2, keys.size()), r == 0);
        }
    }

    /** Adds {@code hits} of {@code trials} to the row {@code what}, whose model expects {@code modelHits}. */
    void tally(String what, double modelHits, long hits, long trials) {
        double[] row = rows.computeIfAbsent(what, w -> new double[3]);
        row[0] += modelHits;
        row[1] += hits;
        row[2] += trials;
    }

    void print(String title) {
        System.out.printf(Locale.ROOT, "%n%s%n| rate | model | measured | keys asked |%n| --- | ---: | ---: | ---: |%n", title);
        rows.forEach((what, row) -> {
            double rate = row[1] / row[2];
            double error = Math.sqrt(rate * (1 - rate) / row[2]);
            System.out.printf(Locale.ROOT, "| %s | %.4f %% | %.4f %% ± %.4f | %,.0f |%n", what, 100 * row[0] / row[2],
                    100 * rate, 100 * error, row[2]);
        });
    }
}

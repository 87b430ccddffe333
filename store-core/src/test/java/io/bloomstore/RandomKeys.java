package io.bloomstore;

import java.util.SplittableRandom;

/**
 * Keys drawn from fixed seeds, so that a test measuring rates measures the same numbers on every
 * run. Members and strangers come from different seeds: the chance that a stranger equals one of
 * n members is about n * queries / 2^64, nil.
 */
final class RandomKeys {
    private RandomKeys() {
    }

    /** Adds {@code count} keys drawn from {@code seed}; returns how many adds reported a new key. */
    static long addMembers(BloomFilter filter, long seed, long count) {
        SplittableRandom members = new SplittableRandom(seed);
        long added = 0;
        for (long i = 0; i < count; i++) {
            added += filter.add(members.nextLong()) ? 1 : 0;
        }
        return added;
    }

    /** The fraction of {@code queries} keys drawn from {@code seed} (never added) reported present. */
    static double falsePositiveRate(BloomFilter filter, long seed, int queries) {
        SplittableRandom strangers = new SplittableRandom(seed);
        long falsePositives = 0;
        for (int i = 0; i < queries; i++) {
            falsePositives += filter.mightContain(strangers.nextLong()) ? 1 : 0;
        }
        return (double) falsePositives / queries;
    }

    /** The standard deviation of a rate measured from {@code trials} trials of probability {@code q}. */
    static double binomialSigma(double q, int trials) {
        return Math.sqrt(q * (1 - q) / trials);
    }
}

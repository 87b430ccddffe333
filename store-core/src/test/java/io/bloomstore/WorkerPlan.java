package io.bloomstore;

import java.util.Collection;

/**
 * What one concurrent worker, a thread or a child process, does to a shared filter: first
 * {@code churnRounds} rounds of adding then removing every key of {@code [churnFrom, churnFrom +
 * churnCount)} (counting filters only), then one add of every key of {@code [addFrom, addFrom +
 * addCount)}.
 *
 * <p>A worker removes only keys it added itself before, so each of its decrements meets a counter
 * holding at least its own increment: below saturation, increments and decrements commute, and the
 * final cells of any interleaving equal those of a single thread applying only the net effect (the
 * adds). Without churn this holds even at saturation, since saturating increments commute too. That
 * is what lets a test demand exact cells after concurrent updates.
 */
record WorkerPlan(long churnFrom, int churnCount, int churnRounds, long addFrom, int addCount) {

    /** A plan that only adds {@code [from, from + count)}. */
    static WorkerPlan addOnly(long from, int count) {
        return new WorkerPlan(0, 0, 0, from, count);
    }

    /** Runs the plan on {@code filter}. */
    void runOn(BloomFilter filter) {
        for (int round = 0; round < churnRounds; round++) {
            for (long key = churnFrom; key < churnFrom + churnCount; key++) {
                filter.add(key);
            }
            for (long key = churnFrom; key < churnFrom + churnCount; key++) {
                if (!filter.remove(key)) {
                    throw new AssertionError("key " + key + " was added by this worker but remove found it absent");
                }
            }
        }
        for (long key = addFrom; key < addFrom + addCount; key++) {
            filter.add(key);
        }
    }

    /** Applies what the plan leaves behind (its adds; the churn cancels out) to {@code filter}. */
    void applyNetEffectTo(BloomFilter filter) {
        for (long key = addFrom; key < addFrom + addCount; key++) {
            filter.add(key);
        }
    }

    /**
     * Applies the most the plan ever holds at once: each churn key added once while not yet
     * removed, plus the adds. Any counter that stays below saturation here stays below it in every
     * interleaving of the plans applied together.
     */
    void applyPeakTo(BloomFilter filter) {
        for (long key = churnFrom; key < churnFrom + (churnRounds > 0 ? churnCount : 0); key++) {
            filter.add(key);
        }
        applyNetEffectTo(filter);
    }

    /** The plan as one line of text, for a child process. */
    String encode() {
        return churnFrom + " " + churnCount + " " + churnRounds + " " + addFrom + " " + addCount;
    }

    /** The plan {@link #encode()} wrote, from {@code words[first..first+5)}. */
    static WorkerPlan decode(String[] words, int first) {
        return new WorkerPlan(Long.parseLong(words[first]), Integer.parseInt(words[first + 1]),
                Integer.parseInt(words[first + 2]), Long.parseLong(words[first + 3]), Integer.parseInt(words[first + 4]));
    }

    /** Applies every plan's net effect to {@code filter}, one plan after the other. */
    static void applyNetEffects(Collection<WorkerPlan> plans, BloomFilter filter) {
        plans.forEach(plan -> plan.applyNetEffectTo(filter));
    }
}

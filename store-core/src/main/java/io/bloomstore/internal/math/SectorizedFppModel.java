package io.bloomstore.internal.math;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exact false-positive rate of the sectorized layout under Poisson line loads, as a sum of
 * positive terms only: keys fall into the m / 512 lines Poisson with mean lambda = 512 n / m; each
 * key sets b bits, drawn with replacement, in each of S distinct words of its line (a uniform
 * S-subset of the 8); a query tests its own b bits in each of its S words.
 *
 * <p>The query's state is how many of its distinct bits are still unset in each of its S words,
 * and as the words are alike only the multiset of those counts matters: the count vector
 * (n_0, ..., n_b), n_a words with a bits unset, C(S + b, b) states. Before any key the words hold
 * the query's own D distinct bits among its b draws, independently; each key of the line shares a
 * given set of j of the query's words with probability C(8 - S, S - j) / C(8, S), and in each
 * shared word its b throws leave a' of the a unset bits unset with probability h(a, a') (b throws
 * of a coupon collector). So f(j), the chance that a line of j keys answers the query falsely, is
 * the mass of the all-set state after j steps of a chain whose every number is a probability, and
 * the rate is f averaged over Poisson(lambda) keys in the line, as the blocked layout's is. Every
 * sum adds non-negative terms, so binary64 loses only a few ulps per operation, relatively, at any
 * rate: the relative error is below 1e-10 (docs/FORMAT.md, "Sizing"), where the inclusion-exclusion
 * form of {@link LegacySectorizedFppModel} alternates over terms of 2^k for a far smaller rate.
 *
 * <p>f depends on k and S alone, not on the filter's n or m, so each chain is built once per JVM
 * and its f(j) kept as they are computed: sizing a growing chain evaluates the same k for every
 * segment. Evaluated with {@link StrictMath} in the order docs/FORMAT.md gives.
 */
public final class SectorizedFppModel implements FppModel {
    private static final int WORD_BITS = 64;
    /** The 64-bit words of a 512-bit line: the sectors a key chooses from. */
    private static final int LINE_WORDS = 8;
    private static final int LINE_BITS = LINE_WORDS * WORD_BITS;
    private static final Map<Integer, Chain> CHAINS = new ConcurrentHashMap<>();

    private final Chain chain;

    /**
     * The model of keys of {@code hashes} bits in {@code sectors} words of their line.
     *
     * @param hashes k, a multiple of {@code sectors}
     * @param sectors S, the words of its line a key sets bits in (the layout's rule gives it from k)
     */
    public SectorizedFppModel(int hashes, int sectors) {
        this.chain = CHAINS.computeIfAbsent(hashes * (LINE_WORDS + 1) + sectors, key -> new Chain(sectors, hashes / sectors));
    }

    /** The rate after {@code keys} distinct keys in {@code cells} cells (a multiple of 512), within [0, 1]. */
    @Override
    public double fpp(long cells, double keys) {
        if (keys <= 0) {
            return 0;
        }
        return FalsePositiveMath.poissonAverage(keys * LINE_BITS / cells, chain::lineFpp);
    }

    /** The chain of one (S, b): its states, its transitions, and f(j) for the j computed so far. */
    private static final class Chain {
        private final int sectors;
        private final int bits;
        /** The states' count vectors, in docs/FORMAT.md's order. */
        private final List<int[]> states = new ArrayList<>();
        private final Map<List<Integer>, Integer> indexOf = new HashMap<>();
        /** Per state, the states one key leads to and with what probability, in increasing target. */
        private final int[][] targets;
        private final double[][] chances;
        private final int allSet;
        /** The state distribution after {@code keysComputed} keys. */
        private double[] distribution;
        private double[] fppWithKeys = new double[64];
        private int keysComputed;

        Chain(int sectors, int bits) {
            this.sectors = sectors;
            this.bits = bits;
            enumerate(new int[bits + 1], 0, sectors);
            int[] full = new int[bits + 1];
            full[0] = sectors;
            this.allSet = index(full);
            double[] distinct = distinctDraws(bits);
            double[][] unhit = unhitAfterThrows(bits);
            // the query's words before any key: D_w distinct bits each, independently
            this.distribution = new double[states.size()];
            for (int s = 0; s < states.size(); s++) {
                int[] n = states.get(s);
                double chance = multinomial(n, sectors);
                for (int a = 0; a <= bits; a++) {
                    chance *= StrictMath.pow(distinct[a], n[a]);
                }
                distribution[s] = chance;
            }
            this.targets = new int[states.size()][];
            this.chances = new double[states.size()][];
            Map<List<Integer>, Map<List<Integer>, Double>> outcomes = new HashMap<>();
            double subsets = binomial(LINE_WORDS, sectors);
            for (int s = 0; s < states.size(); s++) {
                int[] n = states.get(s);
                double[] row = new double[states.size()];
                int[] shared = new int[bits + 1];
                addShared(n, shared, 0, sectors, subsets, row, unhit, outcomes);
                int entries = 0;
                for (double chance : row) {
                    entries += chance > 0 ? 1 : 0;
                }
                targets[s] = new int[entries];
                chances[s] = new double[entries];
                for (int t = 0, e = 0; t < row.length; t++) {
                    if (row[t] > 0) {
                        targets[s][e] = t;
                        chances[s][e++] = row[t];
                    }
                }
            }
            fppWithKeys[0] = distribution[allSet];
        }

        synchronized double lineFpp(int keys) {
            while (keysComputed < keys) {
                double[] next = new double[distribution.length];
                for (int s = 0; s < distribution.length; s++) {
                    double mass = distribution[s];
                    if (mass != 0) {
                        for (int e = 0; e < targets[s].length; e++) {
                            next[targets[s][e]] += mass * chances[s][e];
                        }
                    }
                }
                distribution = next;
                keysComputed++;
                if (keysComputed >= fppWithKeys.length) {
                    fppWithKeys = Arrays.copyOf(fppWithKeys, fppWithKeys.length * 2);
                }
                fppWithKeys[keysComputed] = distribution[allSet];
            }
            return fppWithKeys[keys];
        }

        /** Every count vector of S words, n_0 varying slowest, each n_a from 0 to what is left, n_b the rest. */
        private void enumerate(int[] n, int a, int left) {
            if (a == bits) {
                n[a] = left;
                indexOf.put(key(n), states.size());
                states.add(n.clone());
                return;
            }
            for (int c = 0; c <= left; c++) {
                n[a] = c;
                enumerate(n, a + 1, left - c);
            }
        }

        /**
         * Adds to {@code row} one key's moves from state n: for every vector u of shared words
         * (u_a of the n_a words with a unset bits, u_0 varying slowest, each u_a from 0 to n_a),
         * the chance C(8 - S, S - |u|) / C(8, S) prod C(n_a, u_a) that the key shares exactly
         * such a set, times the chance of each outcome v of the shared words, to state n - u + v.
         */
        private void addShared(int[] n, int[] u, int a, int size, double subsets, double[] row, double[][] unhit,
                Map<List<Integer>, Map<List<Integer>, Double>> outcomes) {
            if (a <= bits) {
                for (int c = 0; c <= n[a]; c++) {
                    u[a] = c;
                    addShared(n, u, a + 1, size, subsets, row, unhit, outcomes);
                }
                return;
            }
            int sharedWords = 0;
            double chance = 1;
            for (int i = 0; i <= bits; i++) {
                sharedWords += u[i];
                chance *= binomial(n[i], u[i]);
            }
            chance *= binomial(LINE_WORDS - sectors, sectors - sharedWords) / subsets;
            if (chance == 0) {
                return;
            }
            Map<List<Integer>, Double> after = outcomes.computeIfAbsent(key(u), shared -> outcomesOf(u, unhit));
            for (Map.Entry<List<Integer>, Double> outcome : after.entrySet()) {
                int[] target = new int[bits + 1];
                for (int i = 0; i <= bits; i++) {
                    target[i] = n[i] - u[i] + outcome.getKey().get(i);
                }
                row[index(target)] += chance * outcome.getValue();
            }
        }

        /**
         * The distribution of the count vector of the shared words u after one key's throws, each
         * word independently by h: the words taken in increasing a, each of a word's outcomes a'
         * in increasing a', from the empty vector with chance 1.
         */
        private Map<List<Integer>, Double> outcomesOf(int[] u, double[][] unhit) {
            Map<List<Integer>, Double> current = new LinkedHashMap<>();
            current.put(key(new int[bits + 1]), 1.0);
            for (int a = 0; a <= bits; a++) {
                for (int word = 0; word < u[a]; word++) {
                    Map<List<Integer>, Double> next = new LinkedHashMap<>();
                    for (Map.Entry<List<Integer>, Double> entry : current.entrySet()) {
                        for (int left = 0; left <= a; left++) {
                            if (unhit[a][left] > 0) {
                                Integer[] v = entry.getKey().toArray(new Integer[0]);
                                v[left]++;
                                next.merge(List.of(v), entry.getValue() * unhit[a][left], Double::sum);
                            }
                        }
                    }
                    current = next;
                }
            }
            return current;
        }

        private int index(int[] n) {
            return indexOf.get(key(n));
        }

        private static List<Integer> key(int[] n) {
            return Arrays.stream(n).boxed().toList();
        }
    }

    /** P_b(d): the chance that b draws from 64 bits give d distinct ones, d = 0 .. b (the occupancy recurrence). */
    static double[] distinctDraws(int bits) {
        double[] distinct = new double[bits + 1];
        distinct[0] = 1;
        for (int draw = 0; draw < bits; draw++) {
            double[] next = new double[bits + 1];
            for (int d = 0; d <= draw; d++) {
                next[d] += distinct[d] * (d / (double) WORD_BITS);
                next[d + 1] += distinct[d] * ((WORD_BITS - d) / (double) WORD_BITS);
            }
            distinct = next;
        }
        return distinct;
    }

    /**
     * h(a, a'): the chance that b throws into 64 bits leave a' of a given a bits unhit, a = 0 .. b;
     * each throw hits one of the x still unhit with probability x / 64.
     */
    private static double[][] unhitAfterThrows(int bits) {
        double[][] unhit = new double[bits + 1][];
        for (int a = 0; a <= bits; a++) {
            double[] left = new double[a + 1];
            left[a] = 1;
            for (int t = 0; t < bits; t++) {
                double[] next = new double[a + 1];
                for (int x = 0; x <= a; x++) {
                    next[x] += left[x] * ((WORD_BITS - x) / (double) WORD_BITS);
                    if (x > 0) {
                        next[x - 1] += left[x] * (x / (double) WORD_BITS);
                    }
                }
                left = next;
            }
            unhit[a] = left;
        }
        return unhit;
    }

    static double multinomial(int[] counts, int total) {
        double value = 1;
        int remaining = total;
        for (int count : counts) {
            value *= binomial(remaining, count);
            remaining -= count;
        }
        return value;
    }

    static double binomial(int n, int r) {
        if (r < 0 || r > n) {
            return 0;
        }
        double value = 1;
        for (int i = 1; i <= r; i++) {
            value = value * (n - r + i) / i;
        }
        return value;
    }
}

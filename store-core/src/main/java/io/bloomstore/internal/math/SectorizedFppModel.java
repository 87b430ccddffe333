package io.bloomstore.internal.math;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * rate (SectorizedFppModelPrecisionTest: within a relative 1e-9 of a 50-digit evaluation, rates down
 * to 1e-21), where the inclusion-exclusion form of {@link LegacySectorizedFppModel} alternates over
 * terms of 2^k for a far smaller rate.
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
    /** Codes up to which a chain looks its states up in an array (4 MiB of ints) rather than by binary search. */
    private static final long DENSE_CODES = 1 << 20;

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

    /**
     * The chain of one (S, b): its states, its transitions, and f(j) for the j computed so far. A
     * count vector is coded as the number whose base-(S + 1) digits are n_0 (the most significant)
     * to n_b, so that the codes of the states in docs/FORMAT.md's order increase, and the code of
     * n - u + w is code(n) - code(u) + code(w).
     */
    private static final class Chain {
        private final int sectors;
        private final int bits;
        /** base^(b - a): the weight of digit a. */
        private final long[] digit;
        /** The states' codes, increasing: docs/FORMAT.md's order. */
        private final long[] states;
        /** The state of each code, where the codes are few enough to index an array: the build's inner lookup. */
        private final int[] stateOfCode;
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
            this.digit = new long[bits + 1];
            for (int a = bits; a >= 0; a--) {
                digit[a] = a == bits ? 1 : digit[a + 1] * (sectors + 1);
            }
            List<int[]> vectors = new ArrayList<>();
            enumerate(new int[bits + 1], 0, sectors, vectors);
            this.states = new long[vectors.size()];
            for (int s = 0; s < states.length; s++) {
                states[s] = code(vectors.get(s));
            }
            this.allSet = Arrays.binarySearch(states, sectors * digit[0]);
            long codes = states[states.length - 1] + 1;
            this.stateOfCode = codes > DENSE_CODES ? null : new int[(int) codes];
            for (int s = 0; stateOfCode != null && s < states.length; s++) {
                stateOfCode[(int) states[s]] = s;
            }
            double[] distinct = distinctDraws(bits);
            double[][] unhit = unhitAfterThrows(bits);
            // the query's words before any key: D_w distinct bits each, independently
            this.distribution = new double[states.length];
            for (int s = 0; s < states.length; s++) {
                int[] n = vectors.get(s);
                double chance = multinomial(n, sectors);
                for (int a = 0; a <= bits; a++) {
                    chance *= StrictMath.pow(distinct[a], n[a]);
                }
                distribution[s] = chance;
            }
            this.targets = new int[states.length][];
            this.chances = new double[states.length][];
            Map<Long, Outcomes> outcomes = new HashMap<>();
            double subsets = binomial(LINE_WORDS, sectors);
            double[] row = new double[states.length];
            for (int s = 0; s < states.length; s++) {
                int[] n = vectors.get(s);
                Arrays.fill(row, 0);
                addShared(n, states[s], new int[bits + 1], 0, subsets, row, unhit, outcomes);
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
        private void enumerate(int[] n, int a, int left, List<int[]> vectors) {
            if (a == bits) {
                n[a] = left;
                vectors.add(n.clone());
                return;
            }
            for (int c = 0; c <= left; c++) {
                n[a] = c;
                enumerate(n, a + 1, left - c, vectors);
            }
        }

        /**
         * Adds to {@code row} one key's moves from state n: for every vector u of shared words
         * (u_a of the n_a words with a unset bits, u_0 varying slowest, each u_a from 0 to n_a),
         * the chance C(8 - S, S - |u|) / C(8, S) prod C(n_a, u_a) that the key shares exactly
         * such a set, times the chance of each outcome w of the shared words, to state n - u + w.
         */
        private void addShared(int[] n, long code, int[] u, int a, double subsets, double[] row, double[][] unhit,
                Map<Long, Outcomes> outcomes) {
            if (a <= bits) {
                for (int c = 0; c <= n[a]; c++) {
                    u[a] = c;
                    addShared(n, code, u, a + 1, subsets, row, unhit, outcomes);
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
            long shared = code(u);
            Outcomes after = outcomes.computeIfAbsent(shared, key -> outcomesOf(u, unhit));
            long rest = code - shared;
            for (int e = 0; e < after.size; e++) {
                long target = rest + after.codes[e];
                row[stateOfCode != null ? stateOfCode[(int) target] : Arrays.binarySearch(states, target)]
                        += chance * after.chances[e];
            }
        }

        /**
         * The distribution of the count vector of the shared words u after one key's throws, each
         * word independently by h: the words taken in increasing a, each of a word's outcomes a'
         * in increasing a', from the empty vector with chance 1; a new vector is appended, one
         * met before has the chance added to its own.
         */
        private Outcomes outcomesOf(int[] u, double[][] unhit) {
            Outcomes current = new Outcomes();
            current.add(0, 1.0);
            for (int a = 0; a <= bits; a++) {
                for (int word = 0; word < u[a]; word++) {
                    Outcomes next = new Outcomes();
                    for (int e = 0; e < current.size; e++) {
                        for (int left = 0; left <= a; left++) {
                            if (unhit[a][left] > 0) {
                                next.add(current.codes[e] + digit[left], current.chances[e] * unhit[a][left]);
                            }
                        }
                    }
                    current = next;
                }
            }
            return current;
        }

        private long code(int[] n) {
            long code = 0;
            for (int a = 0; a <= bits; a++) {
                code += n[a] * digit[a];
            }
            return code;
        }
    }

    /** Count vectors and their chances, in the order first met; a vector met again has its chance added. */
    private static final class Outcomes {
        private long[] codes = new long[8];
        private double[] chances = new double[8];
        private final Map<Long, Integer> positions = new HashMap<>();
        private int size;

        void add(long code, double chance) {
            Integer at = positions.get(code);
            if (at != null) {
                chances[at] += chance;
                return;
            }
            if (size == codes.length) {
                codes = Arrays.copyOf(codes, size * 2);
                chances = Arrays.copyOf(chances, size * 2);
            }
            positions.put(code, size);
            codes[size] = code;
            chances[size++] = chance;
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

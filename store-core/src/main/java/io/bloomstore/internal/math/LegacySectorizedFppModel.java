package io.bloomstore.internal.math;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The sectorized model sizing used before {@link SectorizedFppModel}, kept only to accept the
 * regions it sized in the growing and windowed files written then (docs/FORMAT.md, "Sizing", the
 * sizing of before): the same rate by inclusion-exclusion, exact in exact arithmetic, but in
 * binary64 not at small p.
 *
 * <p>The false-positive rate of the sectorized layout under Poisson line loads: keys fall into
 * the m / 512 lines Poisson with mean lambda = 512 n / m; each key sets b bits, drawn with
 * replacement, in each of S distinct words of its line (a uniform S-subset of the 8); a query
 * tests its own b bits in each of its S words.
 *
 * <p>By inclusion-exclusion over the query's distinct bits A (a_w of them in its word w):
 * P(all set) = sum over A of (-1)^|A| P(no key of the line sets a bit of A), and over Poisson(lambda)
 * keys that probability is exp(-lambda (1 - q(A))), q(A) = E_K[prod over w in K and Q of
 * (1 - a_w / 64)^b] the chance that one key misses A, K the key's words and Q the query's. q
 * depends only on how many of Q's words K shares (j of them, with probability
 * C(8 - S, S - j) / C(8, S) for each such set) and on the a_w, through the elementary symmetric
 * polynomials of (1 - a_w / 64)^b. Averaging over the query's own bits (D_w distinct among its b
 * draws in word w) weighs each vector (a_w) by prod E[C(D_w, a_w)], and the sum depends only on
 * how many words have each a: the model is a fixed list of (weight, q) pairs, and a rate is
 * sum weight e^(-lambda (1 - q)), whatever lambda is. The cells of a line are not independent
 * here (a key sets whole sectors), which is why no fill-based formula is used.
 *
 * <p>The sum alternates: its terms add up to about 2^k in magnitude for a rate that may be far
 * smaller, so {@link #roundingError()} bounds what binary64 loses, and sizing does not use a k
 * whose bound is not far below p. Evaluated with {@link StrictMath} in the order docs/FORMAT.md
 * gives.
 */
public final class LegacySectorizedFppModel implements FppModel {
    private static final int WORD_BITS = 64;
    /** The 64-bit words of a 512-bit line: the sectors a key chooses from. */
    private static final int LINE_WORDS = 8;
    private static final int LINE_BITS = LINE_WORDS * WORD_BITS;
    /** The most k the sizing of before tried. */
    private static final int LEGACY_MAX_HASHES = 32;

    private final double[] weights;
    private final double[] missRates;
    private final double roundingError;

    /**
     * The model of keys of {@code hashes} bits in {@code sectors} words of their line.
     *
     * @param hashes k, a multiple of {@code sectors}
     * @param sectors S, the words of its line a key sets bits in (the layout's rule gives it from k)
     */
    public LegacySectorizedFppModel(int hashes, int sectors) {
        int bits = hashes / sectors;
        int words = LINE_WORDS;
        // P(K and Q share one given set of j words), j = 0 .. S
        double[] shared = new double[sectors + 1];
        double subsets = SectorizedFppModel.binomial(words, sectors);
        for (int j = 0; j <= sectors; j++) {
            shared[j] = SectorizedFppModel.binomial(words - sectors, sectors - j) / subsets;
        }
        // (-1)^a E[C(D, a)] for the D distinct bits among a query's b draws in one word, a = 0 .. b
        double[] distinct = SectorizedFppModel.distinctDraws(bits);
        double[] signedChoices = new double[bits + 1];
        double[] keyMisses = new double[bits + 1];
        for (int a = 0; a <= bits; a++) {
            double expected = 0;
            for (int d = a; d <= bits; d++) {
                expected += distinct[d] * SectorizedFppModel.binomial(d, a);
            }
            signedChoices[a] = (a % 2 == 0 ? 1 : -1) * expected;
            keyMisses[a] = StrictMath.pow(1 - a / (double) WORD_BITS, bits);
        }
        List<double[]> terms = new ArrayList<>();
        collect(new int[bits + 1], 0, sectors, sectors, signedChoices, keyMisses, shared, terms);
        this.weights = new double[terms.size()];
        this.missRates = new double[terms.size()];
        double magnitude = 0;
        for (int i = 0; i < terms.size(); i++) {
            weights[i] = terms.get(i)[0];
            missRates[i] = terms.get(i)[1];
            magnitude += Math.abs(weights[i]);
        }
        // each term is off by a few ulps of its weight; the sum by as many as it has terms
        this.roundingError = magnitude * terms.size() * 0x1p-52;
    }

    /**
     * Every way to give the S query words a count a of required-empty bits, as counts[a] words
     * with each a (a = 0 .. b, in increasing order of the count vector, the last a varying slowest):
     * adds (weight, q) for each.
     */
    private static void collect(int[] counts, int a, int left, int sectors, double[] signedChoices,
            double[] keyMisses, double[] shared, List<double[]> terms) {
        if (a == counts.length - 1) {
            counts[a] = left;
            double weight = SectorizedFppModel.multinomial(counts, sectors);
            double[] values = new double[sectors];
            int w = 0;
            for (int v = 0; v < counts.length; v++) {
                weight *= StrictMath.pow(signedChoices[v], counts[v]);
                for (int c = 0; c < counts[v]; c++) {
                    values[w++] = keyMisses[v];
                }
            }
            // elementary symmetric polynomials e_j of the S values, j = 0 .. S
            double[] elementary = new double[sectors + 1];
            elementary[0] = 1;
            for (double value : values) {
                for (int j = sectors; j >= 1; j--) {
                    elementary[j] += elementary[j - 1] * value;
                }
            }
            double q = 0;
            for (int j = 0; j <= sectors; j++) {
                q += shared[j] * elementary[j];
            }
            terms.add(new double[] {weight, q});
            return;
        }
        for (int c = 0; c <= left; c++) {
            counts[a] = c;
            collect(counts, a + 1, left - c, sectors, signedChoices, keyMisses, shared, terms);
        }
    }

    /**
     * The sizing of before for n keys at rate p: every k from 1 to 32 whose rounding bound is at
     * most p / 1000, the fewest lines that reach p with each, searched as {@link LineSearch}
     * searches. A region of a growing or windowed file written then has this (m, k).
     *
     * @param keys n
     * @param fpp p
     * @param maxLines the most lines a filter may have
     * @param sectorsOfK S for each k, the layout's rule
     * @return the search, whose {@link LineSearch#fewest} is that sizing's (lines, k)
     */
    public static LineSearch sizing(long keys, double fpp, long maxLines, IntUnaryOperator sectorsOfK) {
        return new LineSearch(keys, fpp, LINE_BITS, maxLines, 1, LEGACY_MAX_HASHES, k -> {
            LegacySectorizedFppModel model = new LegacySectorizedFppModel(k, sectorsOfK.applyAsInt(k));
            return model.roundingError() > fpp * 1e-3 ? null : model;
        });
    }

    /** An absolute bound on the rounding error of {@link #fpp}: about 2^k ulps of 1. */
    public double roundingError() {
        return roundingError;
    }

    /** The rate after {@code keys} distinct keys in {@code cells} cells (a multiple of 512), within [0, 1]. */
    @Override
    public double fpp(long cells, double keys) {
        if (keys <= 0) {
            return 0;
        }
        double lambda = keys * LINE_BITS / cells;
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i] * StrictMath.exp(-lambda * (1 - missRates[i]));
        }
        return Math.min(1.0, Math.max(0.0, sum));
    }
}

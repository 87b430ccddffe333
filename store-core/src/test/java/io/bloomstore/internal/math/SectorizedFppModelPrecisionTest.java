package io.bloomstore.internal.math;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.hashing.ProbeMath;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sectorized model, a chain of positive terms in binary64, against the inclusion-exclusion of
 * the sizing of before summed in 50-digit decimal arithmetic, where its cancellation costs
 * nothing: two formulations, relatively within 1e-9 of each other at every k and load tried, rates
 * down to 1e-21 included. The binary64 inclusion-exclusion ({@link LegacySectorizedFppModel}) lies
 * within its bound of the decimal sum, a bound that passed the good k over below about 1e-7 and
 * made the filter larger than the blocked one there; the chain sizes it within a few tenths of a
 * per cent of the blocked filter, and the decimal sum confirms the size meets p.
 */
class SectorizedFppModelPrecisionTest {
    private static final MathContext DIGITS = new MathContext(50);
    private static final BigDecimal WORD_BITS = BigDecimal.valueOf(64);

    /** The model's sum (docs/FORMAT.md, "sectorized") for k bits in S words, at line load lambda, in decimal. */
    private static double decimalFpp(int hashes, int sectors, double lambda) {
        int bits = hashes / sectors;
        BigDecimal[] shared = new BigDecimal[sectors + 1];
        for (int j = 0; j <= sectors; j++) {
            shared[j] = binomial(8 - sectors, sectors - j).divide(binomial(8, sectors), DIGITS);
        }
        BigDecimal[] distinct = new BigDecimal[bits + 1];
        Arrays.fill(distinct, BigDecimal.ZERO);
        distinct[0] = BigDecimal.ONE;
        for (int draw = 0; draw < bits; draw++) {
            BigDecimal[] next = new BigDecimal[bits + 1];
            Arrays.fill(next, BigDecimal.ZERO);
            for (int d = 0; d <= draw; d++) {
                next[d] = next[d].add(distinct[d].multiply(BigDecimal.valueOf(d)).divide(WORD_BITS));
                next[d + 1] = next[d + 1].add(distinct[d].multiply(BigDecimal.valueOf(64 - d)).divide(WORD_BITS));
            }
            distinct = next;
        }
        BigDecimal[] signed = new BigDecimal[bits + 1];
        BigDecimal[] miss = new BigDecimal[bits + 1];
        for (int a = 0; a <= bits; a++) {
            BigDecimal expected = BigDecimal.ZERO;
            for (int d = a; d <= bits; d++) {
                expected = expected.add(distinct[d].multiply(binomial(d, a)));
            }
            signed[a] = a % 2 == 0 ? expected : expected.negate();
            miss[a] = BigDecimal.ONE.subtract(BigDecimal.valueOf(a).divide(WORD_BITS)).pow(bits);
        }
        return sum(new int[sectors], 0, bits, shared, signed, miss, new BigDecimal(lambda), new HashMap<>()).doubleValue();
    }

    /**
     * Every assignment of a count a_w in [0, b] to each of the S query words, one by one; the
     * exponential of each multiset of counts computed once, in {@code misses}.
     */
    private static BigDecimal sum(int[] counts, int word, int bits, BigDecimal[] shared, BigDecimal[] signed,
            BigDecimal[] miss, BigDecimal lambda, Map<String, BigDecimal> misses) {
        if (word < counts.length) {
            BigDecimal total = BigDecimal.ZERO;
            for (int a = 0; a <= bits; a++) {
                counts[word] = a;
                total = total.add(sum(counts, word + 1, bits, shared, signed, miss, lambda, misses), DIGITS);
            }
            return total;
        }
        BigDecimal weight = BigDecimal.ONE;
        for (int a : counts) {
            weight = weight.multiply(signed[a], DIGITS);
        }
        int[] sorted = counts.clone();
        Arrays.sort(sorted);
        BigDecimal missed = misses.computeIfAbsent(Arrays.toString(sorted), key -> {
            BigDecimal[] elementary = new BigDecimal[sorted.length + 1];
            Arrays.fill(elementary, BigDecimal.ZERO);
            elementary[0] = BigDecimal.ONE;
            for (int a : sorted) {
                for (int j = sorted.length; j >= 1; j--) {
                    elementary[j] = elementary[j].add(elementary[j - 1].multiply(miss[a], DIGITS), DIGITS);
                }
            }
            BigDecimal q = BigDecimal.ZERO;
            for (int j = 0; j < elementary.length; j++) {
                q = q.add(shared[j].multiply(elementary[j], DIGITS), DIGITS);
            }
            return exp(lambda.multiply(BigDecimal.ONE.subtract(q), DIGITS).negate());
        });
        return weight.multiply(missed, DIGITS);
    }

    /** e^x: halved until small, the series, squared back. */
    private static BigDecimal exp(BigDecimal x) {
        int halvings = 0;
        BigDecimal small = x.abs();
        while (small.compareTo(new BigDecimal("0.001")) > 0) {
            small = small.divide(BigDecimal.valueOf(2), DIGITS);
            halvings++;
        }
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int i = 1; i < 30; i++) {
            term = term.multiply(small, DIGITS).divide(BigDecimal.valueOf(i), DIGITS);
            sum = sum.add(term, DIGITS);
        }
        for (int i = 0; i < halvings; i++) {
            sum = sum.multiply(sum, DIGITS);
        }
        return x.signum() < 0 ? BigDecimal.ONE.divide(sum, DIGITS) : sum;
    }

    private static BigDecimal binomial(int n, int r) {
        if (r < 0 || r > n) {
            return BigDecimal.ZERO;
        }
        BigInteger value = BigInteger.ONE;
        for (int i = 1; i <= r; i++) {
            value = value.multiply(BigInteger.valueOf(n - r + i)).divide(BigInteger.valueOf(i));
        }
        return new BigDecimal(value);
    }

    @ParameterizedTest(name = "k={0}, {1} bits per key")
    @CsvSource({"1, 4", "2, 10", "3, 16", "6, 5", "6, 10", "6, 40", "8, 12", "10, 16", "10, 60", "12, 40",
            "14, 30", "16, 8", "16, 39", "16, 120", "18, 50", "18, 200", "20, 64", "21, 64", "21, 80", "21, 160",
            "24, 90", "24, 400", "21, 1000", "24, 2000"})
    void theChainIsRelativelyWithinABillionthOfTheDecimalSum(int k, double bitsPerKey) {
        int sectors = ProbeMath.sectors(k);
        long keys = 1_000_000;
        long cells = (long) (bitsPerKey * keys) / 512 * 512;
        double chain = new SectorizedFppModel(k, sectors).fpp(cells, keys);
        double decimal = decimalFpp(k, sectors, keys * 512.0 / cells);
        assertTrue(decimal > 0 && Math.abs(chain - decimal) <= 1e-9 * decimal, "chain " + chain + ", decimal " + decimal);
    }

    @ParameterizedTest(name = "k={0}, {1} bits per key")
    @CsvSource({"6, 10", "10, 16", "12, 40", "16, 39", "18, 50", "21, 64"})
    void theSizingOfBeforeIsWithinItsBoundOfTheDecimalSum(int k, double bitsPerKey) {
        int sectors = ProbeMath.sectors(k);
        LegacySectorizedFppModel model = new LegacySectorizedFppModel(k, sectors);
        long keys = 1_000_000;
        long cells = (long) (bitsPerKey * keys) / 512 * 512;
        double binary64 = model.fpp(cells, keys);
        double decimal = decimalFpp(k, sectors, keys * 512.0 / cells);
        assertTrue(Math.abs(binary64 - decimal) <= model.roundingError(),
                "binary64 " + binary64 + ", decimal " + decimal + ", bound " + model.roundingError());
    }

    /**
     * Below 1e-7 the sizing of before took far more bits than the blocked layout (54.9 a key at
     * 1e-7, 190 at 1e-9, against 49.9 and 80.2); the chain's sizing stays within 0.5 % of the
     * blocked size, and its filter meets p by the decimal sum.
     */
    @ParameterizedTest(name = "p={0}")
    @CsvSource({"1e-7", "1e-8", "1e-9"})
    void atSmallPTheSectorizedSizeMeetsPWithinHalfAPerCentOfBlocked(double p) {
        long keys = 1_000_000;
        BloomSpec blocked = BloomSpec.builder().expectedKeys(keys).fpp(p).layout(Layout.BLOCKED).build();
        BloomSpec sectorized = BloomSpec.builder().expectedKeys(keys).fpp(p).layout(Layout.SECTORIZED).build();
        assertTrue(sectorized.cells() <= 1.005 * blocked.cells(),
                "sectorized " + sectorized.cells() + " (k " + sectorized.hashes() + ") against blocked " + blocked.cells());
        int k = sectorized.hashes();
        double exact = decimalFpp(k, ProbeMath.sectors(k), keys * 512.0 / sectorized.cells());
        assertTrue(exact <= p, "decimal rate " + exact + " at " + sectorized.cells() + " cells, k " + k);
    }
}

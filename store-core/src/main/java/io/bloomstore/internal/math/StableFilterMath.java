package io.bloomstore.internal.math;

/**
 * The model of a stable Bloom filter (Deng &amp; Rafiei, SIGMOD 2006): m cells of d bits holding 0
 * to Max = 2^d - 1; each add first lowers P cells by one (not below zero), then sets the key's k
 * cells to Max; a key reads present when all its k cells are non-zero.
 *
 * <p>One add seen from one cell: the key sets it with probability s = k/m; else the add's run of
 * P consecutive cells from a uniform start lowers it with probability P/m, so it is lowered and not
 * set with probability delta = (P/m)(1 - s). The cell is an event chain: at an event (probability
 * e = s + delta per add) it is set with probability s/e, lowered with probability r = delta/e. It is
 * zero when its last Max events were all lowerings, so at the stable point (the paper's Theorem 1)
 * <b>P0 = r^Max = (1 / (1 + 1/(P (1/k - 1/m))))^Max</b>, and the stable false-positive rate is
 * <b>(1 - P0)^k</b> (Theorem 2). Solving that for P at a target p gives the paper's
 * <b>P = a / ((1 - a)(1/k - 1/m))</b> with a = (1 - p^(1/k))^(1/Max), rounded up.
 *
 * <p>A key added t adds ago: each of its cells was Max at t = 0, and is non-zero at t with
 * probability q(t) = q_inf + sum_{i &lt; Max} r^i (Bin(t, e; = i) - (s/e) Bin(t, e; &lt;= i)), where
 * q_inf = 1 - P0 and Bin the binomial distribution of the events in t adds (the cell's last set is
 * followed by fewer than Max lowerings: summing over the time of the last set gives this closed
 * form). The key reads present with probability pi(t) = q(t)^k, falling from 1 to the stable
 * false-positive rate F; its false-negative rate at distance t is 1 - pi(t). Its expected
 * lifetime, the later adds it survives beyond chance, is <b>L = sum_{t &ge; 1} (pi(t) - F)/(1 - F)</b>,
 * summed numerically on a grid of a quarter event.
 */
public final class StableFilterMath {
    /** Where the lifetime sum stops: a term below this adds nothing a user could see. */
    private static final double NEGLIGIBLE = 1e-9;
    /** Grid of the lifetime sum, in events of one cell: the presence curve changes on the scale of events. */
    private static final double EVENTS_PER_STEP = 0.25;
    /** The widest k sizing tries: past it the lifetime only falls. */
    private static final int MAX_SIZING_HASHES = 24;

    private final long cells;
    private final int hashes;
    private final int max;
    private final long decrements;
    private final double set;
    private final double lowered;
    private final double event;
    private final double ratio;

    /**
     * The model of m {@code cells} of {@code counterBits} bits, {@code hashes} cells per key and
     * {@code decrements} cells lowered per add.
     */
    public StableFilterMath(long cells, int hashes, int counterBits, long decrements) {
        this.cells = cells;
        this.hashes = hashes;
        this.max = (1 << counterBits) - 1;
        this.decrements = decrements;
        this.set = Math.min(1.0, (double) hashes / cells);
        this.lowered = Math.min(1.0, (double) decrements / cells) * (1 - set);
        this.event = set + lowered;
        this.ratio = lowered / event;
    }

    /** P0 = r^Max: the fraction of zero cells at the stable point. */
    public double stableZeroFraction() {
        return StrictMath.pow(ratio, max);
    }

    /** (1 - P0)^k: the false-positive rate the filter converges to, whatever the stream's length. */
    public double stableFpp() {
        return StrictMath.pow(-StrictMath.expm1(max * StrictMath.log(ratio)), hashes);
    }

    /** The probability that one cell of a key added {@code distance} adds ago is non-zero. */
    double cellAlive(double distance) {
        double qInf = 1 - stableZeroFraction();
        if (distance <= 0) {
            return 1;
        }
        double logPmf = distance * StrictMath.log1p(-event);
        double logOdds = StrictMath.log(event) - StrictMath.log1p(-event);
        double cdf = 0;
        double sum = 0;
        double ri = 1;
        for (int i = 0; i < max; i++) {
            if (i > 0) {
                logPmf += StrictMath.log(Math.max(0, distance - i + 1) / i) + logOdds;
            }
            double pmf = StrictMath.exp(logPmf); // 0 once i passes the distance: log(0) is -infinity
            cdf += pmf;
            sum += ri * (pmf - set / event * cdf);
            ri *= ratio;
        }
        return Math.min(1, Math.max(0, qInf + sum));
    }

    /** pi(t) = q(t)^k: the probability a key added {@code distance} adds ago reads present. */
    public double presence(double distance) {
        return StrictMath.pow(cellAlive(distance), hashes);
    }

    /** 1 - pi(t): the probability a key added {@code distance} adds ago reads absent. */
    public double falseNegativeRate(double distance) {
        return 1 - presence(distance);
    }

    /** L: how many later adds a key survives on average, beyond the stable false-positive rate. */
    public double expectedLifetime() {
        double floor = stableFpp();
        double step = Math.max(1, Math.floor(EVENTS_PER_STEP / event));
        double sum = 0.5;
        double minEvents = 4.0 * max / Math.max(ratio, 1e-12) + 64;
        for (long j = 1; ; j++) {
            double t = j * step;
            double term = (presence(t) - floor) / (1 - floor);
            sum += term;
            if (term < NEGLIGIBLE && t * event > minEvents) {
                break;
            }
        }
        return Math.max(0, step * sum - 0.5);
    }

    /**
     * The paper's P for a target stable rate {@code fpp}: a = (1 - p^(1/k))^(1/Max),
     * P = ceil(a / ((1 - a)(1/k - 1/m))), at least 1; 0 if k &ge; m leaves no solution.
     */
    public static long decrementsFor(long cells, int hashes, int counterBits, double fpp) {
        int max = (1 << counterBits) - 1;
        double zeros = -StrictMath.expm1(StrictMath.log(fpp) / hashes);
        double a = StrictMath.pow(zeros, 1.0 / max);
        double perKey = 1.0 / hashes - 1.0 / cells;
        if (perKey <= 0 || a >= 1) {
            return 0;
        }
        return Math.max(1, (long) Math.ceil(a / ((1 - a) * perKey)));
    }

    /**
     * The k (and its P) of m cells whose stable rate meets {@code fpp} with the longest expected
     * lifetime: the paper leaves k open; a dedup index wants keys remembered longest.
     *
     * @return {k, P}, or null if no k up to {@value #MAX_SIZING_HASHES} meets it
     */
    public static long[] bestHashes(long cells, int counterBits, double fpp) {
        long[] best = null;
        double bestLifetime = -1;
        for (int k = 1; k <= MAX_SIZING_HASHES && k < cells; k++) {
            long p = decrementsFor(cells, k, counterBits, fpp);
            if (p == 0 || p > cells) {
                continue;
            }
            double lifetime = new StableFilterMath(cells, k, counterBits, p).expectedLifetime();
            if (lifetime > bestLifetime) {
                bestLifetime = lifetime;
                best = new long[] {k, p};
            }
        }
        return best;
    }

    /**
     * The fewest cells whose best k ({@link #bestHashes}) gives a key an expected lifetime of at
     * least {@code lifetime} later adds at stable rate {@code fpp}. The lifetime grows in
     * proportion to m once m is much larger than k and P (P does not depend on m then), so m is
     * found from one model at a reference size, then corrected until it holds.
     *
     * @return {m, k, P}, or null if no m up to {@code maxCells} reaches it
     */
    public static long[] sizeForLifetime(long lifetime, int counterBits, double fpp, long maxCells) {
        long m = 1L << 20;
        for (int round = 0; round < 12; round++) {
            long[] kp = bestHashes(m, counterBits, fpp);
            if (kp == null) {
                m <<= 2;
                continue;
            }
            double got = new StableFilterMath(m, (int) kp[0], counterBits, kp[1]).expectedLifetime();
            if (got >= lifetime && got <= lifetime * 1.01) {
                return new long[] {m, kp[0], kp[1]};
            }
            long next = (long) Math.ceil(m * (lifetime * 1.002 / got));
            if (next > maxCells) {
                return null;
            }
            m = Math.max(next == m ? m + 1 : next, 2);
        }
        long[] kp = bestHashes(m, counterBits, fpp);
        return kp == null ? null : new long[] {m, kp[0], kp[1]};
    }

    public long cells() {
        return cells;
    }

    public int hashes() {
        return hashes;
    }

    public long decrements() {
        return decrements;
    }
}

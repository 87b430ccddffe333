package io.bloomstore.internal.hashing;

/**
 * Turning one 64-bit key hash into cell indices. Every layout draws on these primitives; their
 * choice of sequence lives with the layout (io.bloomstore.internal.probe).
 */
public final class ProbeMath {
    /** 2^64 / phi, odd: multiplying by it spreads low-entropy differences into the high bits. */
    public static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private ProbeMath() {
    }

    /**
     * Maps a uniform 64-bit {@code hash} to [0, range) by the high half of the 128-bit product
     * hash * range (Lemire's "fastrange"): unbiased to within range / 2^64, one multiply, and it
     * uses the hash's high bits. A modulo would cost a division; a 32-bit cast would cap m at 2^32.
     *
     * @param range at least 1, below 2^63
     */
    public static long reduce(long hash, long range) {
        // unsigned multiply-high from the signed one: hash read as unsigned adds range when negative
        return Math.multiplyHigh(hash, range) + ((hash >> 63) & range);
    }

    /**
     * A second, independent-looking 64-bit value from the key's hash (the MurmurHash3 finaliser),
     * for the step of double hashing. Forced odd so that it is never zero and steps through every
     * residue.
     */
    public static long secondHash(long hash) {
        return fmix64(hash) | 1;
    }

    /** MurmurHash3's 64-bit finaliser: a bijection of u64 that spreads every input bit over the output. */
    public static long fmix64(long hash) {
        long h = hash ^ (hash >>> 33);
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }

    /** 64-bit words in a cache line: the sectors a sectorized key chooses from. */
    public static final int LINE_WORDS = 8;

    /**
     * S, the number of sectors (distinct words of its line) a key of the sectorized layout sets
     * bits in, for k probes: the largest divisor of k that is at most min(8, k / 2), and 1 for
     * k = 1. Each sector then holds b = k / S bits: 2 wherever k is even and at most 16 (k = 6
     * gives S = 3, b = 2), more only past 16 (k = 24: 8 sectors of 3). The file stores only k, so
     * the rule is the format's (docs/FORMAT.md, "Sectorized layout"); sizing picks k, and with it S.
     */
    public static int sectors(int hashes) {
        for (int s = Math.min(LINE_WORDS, hashes / 2); s > 1; s--) {
            if (hashes % s == 0) {
                return s;
            }
        }
        return 1;
    }
}

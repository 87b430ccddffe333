package io.bloomstore.internal.format;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * docs/FORMAT.md's formulas transcribed a second time, as another language would: no code from
 * main, {@link BigInteger} for the unsigned 128-bit product, so a slip in the real code's signed
 * tricks (multiplyHigh plus a correction) cannot hide behind the same slip here.
 */
public final class FormatReference {
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
    /** 2^64 / phi, odd (FORMAT.md, "Blocked layout"). */
    static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private FormatReference() {
    }

    /** The canonical bytes of a long key: its two's complement, little-endian. */
    public static byte[] canonicalBytes(long key) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(key).array();
    }

    /** The canonical bytes of a string key: UTF-8, unpaired surrogates as '?'. */
    public static byte[] canonicalBytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    static BigInteger unsigned(long value) {
        BigInteger v = BigInteger.valueOf(value);
        return value < 0 ? v.add(TWO_TO_64) : v;
    }

    /** fastrange: the high 64 bits of the unsigned 128-bit product x * range. */
    public static long fastrange(long x, long range) {
        return unsigned(x).multiply(unsigned(range)).shiftRight(64).longValueExact();
    }

    /** MurmurHash3's fmix64 of h, forced odd. */
    public static long secondHash(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h | 1;
    }

    /**
     * Standard layout: x_i = h + i h2 mod 2^64, index_i = (fastrange(x_i, m) + ((i^3 - i) / 6 mod m))
     * mod m.
     */
    public static long[] standardIndices(long hash, long cells, int hashes) {
        long h2 = secondHash(hash);
        long[] indices = new long[hashes];
        for (int i = 0; i < hashes; i++) {
            long x = hash + i * h2;
            BigInteger cubic = BigInteger.valueOf(((long) i * i * i - i) / 6);
            indices[i] = BigInteger.valueOf(fastrange(x, cells)).add(cubic).mod(BigInteger.valueOf(cells)).longValueExact();
        }
        return indices;
    }

    /**
     * Blocked layout: B = 512 / w cells per block, block = fastrange(h, m / B), index_i =
     * block B + top log2(B) bits of (h2 G^(i+1) mod 2^64).
     */
    public static long[] blockedIndices(long hash, long cells, int hashes, int counterBits) {
        int perBlock = 512 / counterBits;
        int log2PerBlock = Integer.numberOfTrailingZeros(perBlock);
        long base = fastrange(hash, cells / perBlock) * perBlock;
        long h2 = secondHash(hash);
        long[] indices = new long[hashes];
        long power = 1;
        for (int i = 0; i < hashes; i++) {
            power *= GOLDEN;
            indices[i] = base + ((h2 * power) >>> (64 - log2PerBlock));
        }
        return indices;
    }

    /** Bytes of cells for m cells of w bits: whole 4 KiB pages. */
    public static long cellBytes(long cells, int counterBits) {
        long bits = cells * counterBits;
        return (bits + 32767) / 32768 * 4096;
    }

    /** The byte offset in the file of the little-endian word holding cell i. */
    public static long wordOffset(long cell, int counterBits) {
        return 4096 + cell / (64 / counterBits) * 8; // cells start at the second page
    }

    /** The bit position of cell i inside its word. */
    public static int shiftInWord(long cell, int counterBits) {
        return (int) (cell % (64 / counterBits)) * counterBits;
    }

    /**
     * Sectorized layout: line = fastrange(h, m / 512); S = the largest divisor of k not above
     * min(8, k / 2) (1 if none), b = k / S; the key's words are the r-th S-subset of 0 .. 7 in
     * lexicographic order, r = fastrange(h2 G, C(8, S)); probe t = j b + i lies in the subset's j-th
     * word, at bit top6(h2 G^(t+2)).
     */
    public static long[] sectorizedIndices(long hash, long cells, int hashes) {
        int sectors = 1;
        for (int s = 2; s <= Math.min(8, hashes / 2); s++) {
            if (hashes % s == 0) {
                sectors = s;
            }
        }
        int bits = hashes / sectors;
        List<int[]> subsets = new ArrayList<>();
        lexicographicSubsets(new int[sectors], 0, 0, subsets);
        long line = fastrange(hash, cells / 512);
        long h2 = secondHash(hash);
        int[] words = subsets.get((int) fastrange(h2 * GOLDEN, subsets.size()));
        long[] indices = new long[hashes];
        for (int t = 0; t < hashes; t++) {
            long power = 1;
            for (int e = 0; e < t + 2; e++) {
                power *= GOLDEN;
            }
            indices[t] = line * 512 + words[t / bits] * 64L + ((h2 * power) >>> 58);
        }
        return indices;
    }

    /**
     * Split-block (Parquet's BlockSplitBloomFilter, written out from parquet-format BloomFilter.md):
     * block = ((h >>> 32) * (m / 256)) >>> 32; probe i is bit (salt[i] * (int) h) >>> 27 of the
     * block's 32-bit word i.
     */
    public static long[] sbbfIndices(long hash, long cells) {
        int[] salt = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};
        long block = ((hash >>> 32) * (cells / 256)) >>> 32;
        long[] indices = new long[8];
        for (int i = 0; i < 8; i++) {
            indices[i] = block * 256 + i * 32 + ((salt[i] * (int) hash) >>> 27);
        }
        return indices;
    }

    private static void lexicographicSubsets(int[] chosen, int filled, int from, List<int[]> into) {
        if (filled == chosen.length) {
            into.add(chosen.clone());
            return;
        }
        for (int word = from; word < 8; word++) {
            chosen[filled] = word;
            lexicographicSubsets(chosen, filled + 1, word + 1, into);
        }
    }
}

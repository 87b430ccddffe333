package io.bloomstore.internal.map;

import io.bloomstore.internal.hashing.ProbeMath;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Where a key's three slots are, what it stores there, and how slots are packed: the arithmetic a
 * lookup and a build share (docs/FORMAT.md, "Bloomier maps: lookup").
 *
 * <p>The graph is Graf &amp; Lemire's 3-wise binary fuse graph ("Binary Fuse Filters: Fast and
 * Smaller Than Xor Filters", 2022), as in FastFilter: the table is S + 2 segments of L slots, a
 * key picks a segment s below S and one slot in each of s, s + 1, s + 2. The window of three
 * adjacent segments is what lets a table of about 1.13 n slots peel (a plain 3-wise XOR graph
 * needs 1.23 n), and the three slots lie within 3L of one another, so a lookup touches three
 * nearby lines of memory. Each slot holds W = R + F bits; a key's three slots XOR to its stored
 * word, its F-bit fingerprint above its R-bit value.
 */
public final class FuseGraph {
    private FuseGraph() {
    }

    /** MurmurHash3's finaliser ({@link ProbeMath#fmix64}): a bijection of u64, so distinct key hashes stay distinct. */
    public static long mix(long x) {
        return ProbeMath.fmix64(x);
    }

    /** The construction seed of attempt {@code attempt} (1, 2, …) of a build with {@code keySeed}. */
    public static long constructionSeed(long keySeed, int attempt) {
        return mix(keySeed + attempt * ProbeMath.GOLDEN);
    }

    /** The graph hash of a key whose XXH3-64 hash is {@code keyHash}: distinct key hashes give distinct graph hashes. */
    public static long graphHash(long keyHash, long constructionSeed) {
        return mix(keyHash + constructionSeed);
    }

    /** The key's F-bit fingerprint: the top F bits of its key hash (independent of the slots, which come from the mixed hash). */
    public static long fingerprint(long keyHash, int fingerprintBits) {
        return keyHash >>> (64 - fingerprintBits);
    }

    /** Slot 0 of 3: the segment, by fastrange of the graph hash over S * L, is where slot 0 lies. */
    public static long slot0(long graphHash, long segmentCountLength) {
        return ProbeMath.reduce(graphHash, segmentCountLength);
    }

    /** Slot 1 of 3: one segment on, at an offset in it taken from bits 18 and up. */
    public static long slot1(long graphHash, long slot0, int segmentLength) {
        return (slot0 + segmentLength) ^ ((graphHash >>> 18) & (segmentLength - 1));
    }

    /** Slot 2 of 3: two segments on, at an offset in it taken from the low bits. */
    public static long slot2(long graphHash, long slot0, int segmentLength) {
        return (slot0 + 2L * segmentLength) ^ (graphHash & (segmentLength - 1));
    }

    /** Slot {@code which} (0, 1, 2; 3 and 4 wrap to 0 and 1) of a key. */
    static long slot(int which, long graphHash, long segmentCountLength, int segmentLength) {
        long s0 = slot0(graphHash, segmentCountLength);
        return switch (which % 3) {
            case 0 -> s0;
            case 1 -> slot1(graphHash, s0, segmentLength);
            default -> slot2(graphHash, s0, segmentLength);
        };
    }

    /** The W-bit slot {@code index} of a table at {@code tableStart}: one unaligned 8-byte read (W ≤ 56). */
    public static long readSlot(BytesStore<?, ?> store, long tableStart, long index, int slotBits) {
        long bit = index * slotBits;
        return (store.readLong(tableStart + (bit >>> 3)) >>> (bit & 7)) & ((1L << slotBits) - 1);
    }

    /** Writes slot {@code index}; for the single-threaded build of a table no one reads yet. */
    static void writeSlot(BytesStore<?, ?> store, long tableStart, long index, int slotBits, long value) {
        long bit = index * slotBits;
        long at = tableStart + (bit >>> 3);
        int shift = (int) (bit & 7);
        long mask = ((1L << slotBits) - 1) << shift;
        store.writeLong(at, (store.readLong(at) & ~mask) | (value << shift));
    }

    /**
     * The segment length L for n keys (Graf &amp; Lemire's rule for arity 3, as FastFilter's
     * {@code XorBinaryFuse8}): 2^floor(ln n / ln 3.33 + 2.25), at most 2^18; 4 for no key.
     */
    public static int segmentLength(long pairs) {
        if (pairs == 0) {
            return 4;
        }
        int log = (int) Math.floor(Math.log((double) pairs) / Math.log(3.33) + 2.25);
        return Math.min(MapHeader.MAX_SEGMENT_LENGTH, 1 << log);
    }

    /**
     * The segment count S for n keys: the table needs n · max(1.125, 0.875 + 0.25 ln 10^6 / ln n)
     * slots (rounded), of which S + 2 segments of L, S at least 1.
     */
    public static int segmentCount(long pairs, int segmentLength) {
        double sizeFactor = pairs <= 1 ? 0 : Math.max(1.125, 0.875 + 0.25 * Math.log(1_000_000.0) / Math.log((double) pairs));
        long capacity = Math.round(pairs * sizeFactor);
        return (int) Math.max(1, (capacity + segmentLength - 1) / segmentLength - 2);
    }
}

package io.bloomstore.internal.probe;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.util.Arrays;
import java.util.function.IntToLongFunction;

/**
 * Where the k cells of a key lie, as a function of its 64-bit hash: probe i of a key is
 * {@code index(base(h), step(h), i)}. A closed form per probe, so every operation is one loop
 * ({@link CellProbes}) with no per-key state object.
 */
abstract class Probing {
    static Probing of(BloomSpec spec) {
        switch (spec.layout()) {
            case BLOCKED:
                return Blocked.of(spec, 0);
            case SECTORIZED:
                return Sectorized.of(spec, 0);
            case SBBF:
                return new SplitBlock(spec);
            case GUAVA:
            case SPARK_SKETCH:
                return ImportedProbing.of(spec);
            default:
                return new Standard(spec);
        }
    }

    /**
     * The probing of a filter of shape {@code spec} seen from a slice of its array that starts at
     * block {@code firstBlock}: every index is the whole filter's less the slice's first cell, so a
     * key whose block (line) lies in the slice sets the same cells, at the same offsets within it,
     * as in the whole filter. Only the layouts that keep a key in one block can be sliced; keys of
     * other blocks must not reach it ({@link SliceProbes} checks).
     */
    static Probing slice(BloomSpec spec, long firstBlock) {
        switch (spec.layout()) {
            case BLOCKED:
                return Blocked.of(spec, firstBlock);
            case SECTORIZED:
                return Sectorized.of(spec, firstBlock);
            default:
                throw new IllegalArgumentException("a " + spec.layout() + " filter is not built in slices");
        }
    }

    /** Per-key value computed once before the probes. */
    public abstract long base(long hash);

    /** Second per-key value computed once before the probes. */
    public abstract long step(long hash);

    /** The cell of probe {@code i}, in [0, m). */
    public abstract long index(long base, long step, int i);

    /**
     * Whether the k bits of the key whose hash is {@code hash} are all set, in 1-bit cells whose
     * word 0 is at {@code address}; stops at the first clear one. {@link CellProbes#mightContain}
     * for 1-bit filters: each layout writes it as its own loop with every constant in a local
     * ({@link CellArray#isBitSetVolatile} says why), where the general loop reads cells through
     * {@link io.bloomstore.internal.cells.PackedCells#getVolatile} and the probe through
     * {@link #index}.
     */
    public abstract boolean allBitsSetVolatile(long address, long hash);

    /**
     * Sets the k bits of the key whose hash is {@code hash}, in 1-bit cells whose word 0 is at
     * {@code address} ({@link CellArray#setBit}); {@link CellProbes#increment} for 1-bit filters,
     * written as {@link #allBitsSetVolatile} is.
     *
     * @return whether one of them was clear before: the key was definitely absent
     */
    public abstract boolean setBits(long address, long hash, boolean singleWriter);

    /**
     * Loads one word of every cache line that the keys hashing to {@code keyHashes[from .. to)} will
     * probe, and returns the sum of the words, which the caller must keep so the loads are not
     * dropped: the batch calls' load-ahead pass (why it pays: {@link BatchProber}).
     *
     * <p>Each layout writes this as its own loop with as few instructions per key as it can: the
     * CPU stops taking new instructions once its reorder buffer (a few hundred entries) is full
     * behind the oldest miss, so the fewer instructions between two loads, the more misses are in
     * flight. A shared loop over "lines per key" gave the blocked layout a one-trip inner loop per
     * key, with its loop set-up, two safepoint polls and a second hash the JIT kept alive for
     * deoptimization (about 45 instructions a key, read in the disassembly), and its batch queries
     * of a filter far larger than the caches ran at about half the speed of the plain loop below
     * (docs/BENCHMARKS.md, the load-ahead loop).
     */
    public abstract long loadLines(CellArray array, long[] keyHashes, int from, int to);

    /**
     * Loads the line of each key's first probe only, as {@link #loadLines} loads all of them: for a
     * query that asks several filters in turn (the regions of a segmented file), where an absent
     * key's probing stops at its first zero cell (the first probe, half the time, in a half-full
     * filter), so loading its other k - 1 lines would load far more than the query reads.
     */
    public abstract long loadFirstLines(CellArray array, long[] keyHashes, int from, int to);

    /**
     * Enhanced double hashing (Dillinger &amp; Manolios 2004), g_i = a + i b + (i^3 - i)/6 mod m,
     * with fastrange in place of the integer modulo for the first two terms: x_i = h + i h2 wraps
     * in 2^64 and {@link ProbeMath#reduce} maps it to a cell, an arithmetic progression whose step
     * (h2 m / 2^64 cells) is a real number, free of integer double hashing's short cycles. The
     * cubic term is added in cell units, after the reduction: a key whose step maps to less than a
     * cell (a fraction of about 2k/m of all keys) would otherwise put all its k probes into one or
     * two cells and match whenever those are set. Added in 2^64 space, as a first version did, the
     * term is far below one cell and does nothing: at m = 1000, k = 10 the false-positive rate was
     * 2.9 times the formula's.
     */
    static final class Standard extends Probing {
        /** Keys a batch query keeps in flight beyond the caches ({@link BatchProber} says why so many). */
        static final int KEYS_IN_FLIGHT = 128;
        private final long cells;
        private final int hashes;
        /** (i^3 - i)/6 mod m, for i below {@link BloomSpec#MAX_HASHES}. */
        private final long[] cubicOffsets = new long[BloomSpec.MAX_HASHES];

        Standard(BloomSpec spec) {
            this.cells = spec.cells();
            this.hashes = spec.hashes();
            for (int i = 0; i < cubicOffsets.length; i++) {
                cubicOffsets[i] = ((long) i * i * i - i) / 6 % cells;
            }
        }

        @Override
        public long base(long hash) {
            return hash;
        }

        @Override
        public long step(long hash) {
            return ProbeMath.secondHash(hash);
        }

        @Override
        public long index(long base, long step, int i) {
            return index(base, step, i, cells, cubicOffsets);
        }

        private static long index(long base, long step, int i, long cells, long[] cubicOffsets) {
            long index = ProbeMath.reduce(base + i * step, cells) + cubicOffsets[i];
            return index >= cells ? index - cells : index;
        }

        @Override
        public boolean allBitsSetVolatile(long address, long hash) {
            long cells = this.cells;
            long[] cubicOffsets = this.cubicOffsets;
            int hashes = this.hashes;
            long base = base(hash);
            long step = step(hash);
            for (int i = 0; i < hashes; i++) {
                if (!CellArray.isBitSetVolatile(address, index(base, step, i, cells, cubicOffsets))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean setBits(long address, long hash, boolean singleWriter) {
            long cells = this.cells;
            long[] cubicOffsets = this.cubicOffsets;
            int hashes = this.hashes;
            long base = base(hash);
            long step = step(hash);
            boolean changed = false;
            for (int i = 0; i < hashes; i++) {
                changed |= CellArray.setBit(address, index(base, step, i, cells, cubicOffsets), singleWriter);
            }
            return changed;
        }

        /** Probe 0 is {@code reduce(h)}: no second hash, no cubic term. */
        @Override
        public long loadFirstLines(CellArray array, long[] keyHashes, int from, int to) {
            long sum = 0;
            for (int i = from; i < to; i++) {
                sum += array.getWordOfCellPlain(ProbeMath.reduce(keyHashes[i], cells));
            }
            return sum;
        }

        /**
         * Queries keys {@code 0 .. count)}, key i hashing to {@code hashOfKey(i)}, into
         * {@code results[0 .. count)}, in cells of 2^{@code log2Bits} bits (values masked by
         * {@code max}) whose word 0 is at {@code address}, with up to {@link #KEYS_IN_FLIGHT} keys in flight, each at its next
         * probe; a round reads the words of all of their probes, then tests each key's cell and
         * either ends the key (a zero cell, or its k-th non-zero one) or moves it to its next probe,
         * then takes new keys in place of the ended ones. The batch queries' engine beyond the
         * caches: {@link BatchProber} says why rounds. Each cell is read by a volatile read of its
         * word ({@link CellArray#wordVolatile}), as a single query reads it, so the answers see
         * every add completed before the call; a key's answer is exactly its single query's: the
         * same probes in the same order, up to the same first zero.
         *
         * @return how many may be present
         */
        int mightContainInRounds(long address, int log2Bits, long max, int count, IntToLongFunction hashOfKey,
                boolean[] results) {
            long cells = this.cells;
            long[] cubicOffsets = this.cubicOffsets;
            int hashes = this.hashes;
            int capacity = Math.min(KEYS_IN_FLIGHT, count);
            int[] key = new int[capacity];
            int[] probe = new int[capacity];
            long[] point = new long[capacity]; // hash + probe * step, before the reduction and cubic term
            long[] step = new long[capacity];
            long[] bit = new long[capacity]; // where the probe's cell starts, in bits from word 0
            long[] word = new long[capacity]; // the word that holds it, as the round read it
            int size = 0;
            int next = 0;
            int present = 0;
            while (true) {
                for (; size < capacity && next < count; size++, next++) {
                    long hash = hashOfKey.applyAsLong(next);
                    key[size] = next;
                    probe[size] = 0;
                    point[size] = hash;
                    step[size] = step(hash);
                    bit[size] = ProbeMath.reduce(hash, cells) << log2Bits;
                }
                if (size == 0) {
                    return present;
                }
                // The round's loads, back to back: each misses on its own line, and they overlap.
                for (int s = 0; s < size; s++) {
                    word[s] = CellArray.wordVolatile(address + ((bit[s] >>> 6) << 3));
                }
                int kept = 0;
                for (int s = 0; s < size; s++) {
                    boolean set = ((word[s] >>> bit[s]) & max) != 0;
                    int p = probe[s] + 1;
                    if (set && p < hashes) {
                        long x = point[s] + step[s];
                        long cell = ProbeMath.reduce(x, cells) + cubicOffsets[p];
                        key[kept] = key[s];
                        probe[kept] = p;
                        point[kept] = x;
                        step[kept] = step[s];
                        bit[kept] = (cell >= cells ? cell - cells : cell) << log2Bits;
                        kept++;
                    } else {
                        results[key[s]] = set;
                        present += set ? 1 : 0;
                    }
                }
                size = kept;
            }
        }

        /** Every probe's cell: each is on a line of its own. */
        @Override
        public long loadLines(CellArray array, long[] keyHashes, int from, int to) {
            long sum = 0;
            for (int i = from; i < to; i++) {
                long base = keyHashes[i];
                long step = step(base);
                for (int p = 0; p < hashes; p++) {
                    sum += array.getWordOfCellPlain(index(base, step, p));
                }
            }
            return sum;
        }
    }

    /**
     * One 64-byte block per key, chosen by the hash's high bits ({@link ProbeMath#reduce}); inside
     * it, probe i takes the top log2(B) bits of h2 * phi^(i+1), where h2 is an independent mix of
     * the hash. Multiplying by the golden ratio (as RocksDB's FastLocalBloom does) re-randomises
     * the top bits at each step, so the k probes behave as independent draws within the block.
     */
    static class Blocked extends Probing {
        static final long[] GOLDEN_POWERS = new long[BloomSpec.MAX_HASHES];

        static {
            long power = 1;
            for (int i = 0; i < GOLDEN_POWERS.length; i++) {
                power *= ProbeMath.GOLDEN;
                GOLDEN_POWERS[i] = power;
            }
        }

        private final long blocks;
        private final int log2CellsPerBlock;
        private final int inBlockShift;
        final int hashes;
        /** The cell the array starts at: 0, or a slice's first ({@link Probing#slice}). */
        private final long firstCell;

        Blocked(BloomSpec spec, long firstBlock) {
            int perBlock = spec.cellsPerBlock();
            this.hashes = spec.hashes();
            this.blocks = blocks(spec);
            this.log2CellsPerBlock = Integer.numberOfTrailingZeros(perBlock);
            this.inBlockShift = 64 - log2CellsPerBlock;
            this.firstCell = firstBlock << log2CellsPerBlock;
        }

        /**
         * The probing of a blocked filter of shape {@code spec} from block {@code firstBlock} on:
         * {@link BlockedBits} for 1-bit cells and k up to 16, else this class's loops.
         */
        static Blocked of(BloomSpec spec, long firstBlock) {
            return spec.counterBits() == 1 && spec.hashes() <= BlockedBits.MAX_HASHES ? new BlockedBits(spec, firstBlock)
                    : new Blocked(spec, firstBlock);
        }

        /** The number of blocks of a blocked filter of shape {@code spec}. */
        static long blocks(BloomSpec spec) {
            return spec.cells() / spec.cellsPerBlock();
        }

        /** The block, in [0, blocks), that holds all the cells of the key whose hash is {@code hash}. */
        static long block(long hash, long blocks) {
            return ProbeMath.reduce(hash, blocks);
        }

        @Override
        public long base(long hash) {
            return (block(hash, blocks) << log2CellsPerBlock) - firstCell;
        }

        @Override
        public long step(long hash) {
            return ProbeMath.secondHash(hash);
        }

        @Override
        public long index(long base, long step, int i) {
            return index(base, step, i, inBlockShift);
        }

        private static long index(long base, long step, int i, int inBlockShift) {
            return base + ((step * GOLDEN_POWERS[i]) >>> inBlockShift);
        }

        @Override
        public boolean allBitsSetVolatile(long address, long hash) {
            int inBlockShift = this.inBlockShift;
            int hashes = this.hashes;
            long base = base(hash);
            long step = step(hash);
            for (int i = 0; i < hashes; i++) {
                if (!CellArray.isBitSetVolatile(address, index(base, step, i, inBlockShift))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean setBits(long address, long hash, boolean singleWriter) {
            int inBlockShift = this.inBlockShift;
            int hashes = this.hashes;
            long base = base(hash);
            long step = step(hash);
            boolean changed = false;
            for (int i = 0; i < hashes; i++) {
                changed |= CellArray.setBit(address, index(base, step, i, inBlockShift), singleWriter);
            }
            return changed;
        }

        /** The block's first cell: its line is the key's one line. The second hash is not needed. */
        @Override
        public long loadLines(CellArray array, long[] keyHashes, int from, int to) {
            long sum = 0;
            for (int i = from; i < to; i++) {
                sum += array.getWordOfCellPlain(base(keyHashes[i]));
            }
            return sum;
        }

        /** A key's one line is its first probe's. */
        @Override
        public long loadFirstLines(CellArray array, long[] keyHashes, int from, int to) {
            return loadLines(array, keyHashes, from, to);
        }
    }

    /**
     * The blocked probing of 1-bit cells (a block is one 512-bit line) for k up to 16: the same cells
     * as {@link Blocked} (its {@link #index} is the definition), each probe's multiplier G^(i+1)
     * folded into the code as a constant, the probes written out one after another and entered at
     * probe k - 1 by a switch, as {@link Pairs} does for the sectorized layout. A query ORs the bits
     * missing from the words it reads and tests once, without a branch per probe: the line is in
     * the cache after the first load, so the loads an early exit would save cost less than the
     * branches an absent key mispredicts.
     */
    static final class BlockedBits extends Blocked {
        static final int MAX_HASHES = 16;
        private static final long G1 = GOLDEN_POWERS[0];
        private static final long G2 = GOLDEN_POWERS[1];
        private static final long G3 = GOLDEN_POWERS[2];
        private static final long G4 = GOLDEN_POWERS[3];
        private static final long G5 = GOLDEN_POWERS[4];
        private static final long G6 = GOLDEN_POWERS[5];
        private static final long G7 = GOLDEN_POWERS[6];
        private static final long G8 = GOLDEN_POWERS[7];
        private static final long G9 = GOLDEN_POWERS[8];
        private static final long G10 = GOLDEN_POWERS[9];
        private static final long G11 = GOLDEN_POWERS[10];
        private static final long G12 = GOLDEN_POWERS[11];
        private static final long G13 = GOLDEN_POWERS[12];
        private static final long G14 = GOLDEN_POWERS[13];
        private static final long G15 = GOLDEN_POWERS[14];
        private static final long G16 = GOLDEN_POWERS[15];
        /** 64 - log2(512): a probe's cell in the line is the top 9 bits of h2 G^(i+1). */
        private static final int SHIFT = 55;

        BlockedBits(BloomSpec spec, long firstBlock) {
            super(spec, firstBlock);
        }

        /** The bit of the probe whose multiplier is {@code power} missing from its word of the line. */
        private static long missing(long line, long h2, long power) {
            long cell = (h2 * power) >>> SHIFT;
            return (1L << cell) & ~CellArray.wordVolatile(line + ((cell >>> 3) & ~7L));
        }

        private static boolean set(long line, long h2, long power, boolean singleWriter) {
            long cell = (h2 * power) >>> SHIFT;
            return CellArray.setBitsOfWord(line + ((cell >>> 3) & ~7L), 1L << cell, singleWriter);
        }

        @Override
        public boolean allBitsSetVolatile(long address, long hash) {
            long line = address + (base(hash) >>> 3);
            long h2 = step(hash);
            long missing = 0;
            switch (hashes) {
                case 16:
                    missing |= missing(line, h2, G16);
                    // fall through
                case 15:
                    missing |= missing(line, h2, G15);
                    // fall through
                case 14:
                    missing |= missing(line, h2, G14);
                    // fall through
                case 13:
                    missing |= missing(line, h2, G13);
                    // fall through
                case 12:
                    missing |= missing(line, h2, G12);
                    // fall through
                case 11:
                    missing |= missing(line, h2, G11);
                    // fall through
                case 10:
                    missing |= missing(line, h2, G10);
                    // fall through
                case 9:
                    missing |= missing(line, h2, G9);
                    // fall through
                case 8:
                    missing |= missing(line, h2, G8);
                    // fall through
                case 7:
                    missing |= missing(line, h2, G7);
                    // fall through
                case 6:
                    missing |= missing(line, h2, G6);
                    // fall through
                case 5:
                    missing |= missing(line, h2, G5);
                    // fall through
                case 4:
                    missing |= missing(line, h2, G4);
                    // fall through
                case 3:
                    missing |= missing(line, h2, G3);
                    // fall through
                case 2:
                    missing |= missing(line, h2, G2);
                    // fall through
                default:
                    missing |= missing(line, h2, G1);
            }
            return missing == 0;
        }

        @Override
        public boolean setBits(long address, long hash, boolean singleWriter) {
            long line = address + (base(hash) >>> 3);
            long h2 = step(hash);
            boolean changed = false;
            switch (hashes) {
                case 16:
                    changed |= set(line, h2, G16, singleWriter);
                    // fall through
                case 15:
                    changed |= set(line, h2, G15, singleWriter);
                    // fall through
                case 14:
                    changed |= set(line, h2, G14, singleWriter);
                    // fall through
                case 13:
                    changed |= set(line, h2, G13, singleWriter);
                    // fall through
                case 12:
                    changed |= set(line, h2, G12, singleWriter);
                    // fall through
                case 11:
                    changed |= set(line, h2, G11, singleWriter);
                    // fall through
                case 10:
                    changed |= set(line, h2, G10, singleWriter);
                    // fall through
                case 9:
                    changed |= set(line, h2, G9, singleWriter);
                    // fall through
                case 8:
                    changed |= set(line, h2, G8, singleWriter);
                    // fall through
                case 7:
                    changed |= set(line, h2, G7, singleWriter);
                    // fall through
                case 6:
                    changed |= set(line, h2, G6, singleWriter);
                    // fall through
                case 5:
                    changed |= set(line, h2, G5, singleWriter);
                    // fall through
                case 4:
                    changed |= set(line, h2, G4, singleWriter);
                    // fall through
                case 3:
                    changed |= set(line, h2, G3, singleWriter);
                    // fall through
                case 2:
                    changed |= set(line, h2, G2, singleWriter);
                    // fall through
                default:
                    changed |= set(line, h2, G1, singleWriter);
            }
            return changed;
        }
    }

    /**
     * The blocked layout's line (w = 1, so B = 512), then S distinct words of it and b bits in each
     * (k = S b, S from k by {@link ProbeMath#sectors}). The S words are one of the C(8, S) subsets
     * of the line's eight, chosen uniformly by fastrange(h2 G, C(8, S)) from a table in
     * lexicographic order (docs/FORMAT.md, "Sectorized layout"); probe t's bit within its word
     * is the top 6 bits of h2 G^(t+2), so two bits of one word may coincide, as RocksDB's and
     * Boost's cache-local filters let them: drawing them distinct would cost a dependent step per
     * bit, and the sizing model counts the coincidences (FORMAT.md says what they cost).
     *
     * <p>A query loads its S words and ORs the bits missing from each into one value, tested once;
     * an add does the same first, so a key already present writes nothing, and otherwise sets each
     * word's b bits with one compare-and-set of the whole word ({@link CellArray#setBitsOfWord}).
     * The general probe ({@link #index}) gives the same cells one at a time, for the lockstep
     * queries of a windowed file.
     */
    static class Sectorized extends Blocked {
        /** G^1 .. G^65: probe t uses G^(t+2), the subset G^1. */
        private static final long[] POWERS = new long[BloomSpec.MAX_HASHES + 1];
        /**
         * For each S from 1 to 8, the S-subsets of the line's words in lexicographic order, each
         * packed with the byte offset in the line of its j-th word (ascending) in byte j.
         */
        private static final long[][] SUBSETS = new long[ProbeMath.LINE_WORDS + 1][];

        static {
            long power = 1;
            for (int i = 0; i < POWERS.length; i++) {
                power *= ProbeMath.GOLDEN;
                POWERS[i] = power;
            }
            for (int size = 1; size <= ProbeMath.LINE_WORDS; size++) {
                long[] packed = new long[1 << ProbeMath.LINE_WORDS];
                int count = 0;
                // Lexicographic order of subsets, each listed ascending: the masks with {@code size}
                // bits set, ordered by their reversed bit strings (word 0 first).
                for (int lex = (1 << ProbeMath.LINE_WORDS) - 1; lex >= 0; lex--) {
                    int words = Integer.reverse(lex) >>> (32 - ProbeMath.LINE_WORDS);
                    if (Integer.bitCount(words) == size) {
                        long offsets = 0;
                        int j = 0;
                        for (int word = 0; word < ProbeMath.LINE_WORDS; word++) {
                            if ((words & (1 << word)) != 0) {
                                offsets |= (long) (word * Long.BYTES) << (8 * j++);
                            }
                        }
                        packed[count++] = offsets;
                    }
                }
                SUBSETS[size] = Arrays.copyOf(packed, count);
            }
        }

        final int sectors;
        private final int bitsPerSector;
        /** The S-subsets of {@link #SUBSETS}. */
        final long[] subsets;

        Sectorized(BloomSpec spec, long firstLine) {
            super(spec, firstLine); // 1-bit cells: BloomSpec refuses a sectorized spec of counters
            this.sectors = ProbeMath.sectors(spec.hashes());
            this.bitsPerSector = spec.hashes() / sectors;
            this.subsets = SUBSETS[sectors];
        }

        /**
         * The probing of a sectorized filter of shape {@code spec} from line {@code firstLine} on:
         * {@link Pairs} where b = 2 (every even k up to 16, which covers what sizing chooses from
         * p = 13 % down to 10^-6 but for k = 9 and 15), else this class's loops over S and b.
         */
        static Sectorized of(BloomSpec spec, long firstLine) {
            int k = spec.hashes();
            return k / ProbeMath.sectors(k) == 2 ? new Pairs(spec, firstLine) : new Sectorized(spec, firstLine);
        }

        /** The byte offsets in its line of the key's S words, packed one a byte ({@link #SUBSETS}). */
        static long sectorOffsets(long h2, long[] subsets) {
            return subsets[(int) ProbeMath.reduce(h2 * ProbeMath.GOLDEN, subsets.length)];
        }

        /** The bits of probes {@code first .. first + bits - 1} within their word, as a mask. */
        private static long mask(long h2, int first, int bits) {
            long mask = 0;
            for (int t = first; t < first + bits; t++) {
                mask |= 1L << ((h2 * POWERS[t + 1]) >>> 58);
            }
            return mask;
        }

        @Override
        public long index(long base, long step, int i) {
            long offsets = sectorOffsets(step, subsets);
            long byteInLine = (offsets >>> (8 * (i / bitsPerSector))) & 0xFF;
            return base + (byteInLine << 3) + ((step * POWERS[i + 1]) >>> 58);
        }

        /** The bits of the key's mask missing from its S words, ORed together: zero if all are set. */
        private static long missing(long line, long h2, long offsets, int sectors, int bits) {
            long missing = 0;
            for (int s = 0; s < sectors; s++) {
                long word = CellArray.wordVolatile(line + ((offsets >>> (s << 3)) & 0xFF));
                missing |= mask(h2, s * bits, bits) & ~word;
            }
            return missing;
        }

        /** The address of the key's line, in 1-bit cells whose word 0 is at {@code address}: its first cell's byte. */
        private long lineAddress(long address, long hash) {
            return address + (base(hash) >>> 3);
        }

        @Override
        public boolean allBitsSetVolatile(long address, long hash) {
            long h2 = ProbeMath.secondHash(hash);
            return missing(lineAddress(address, hash), h2, sectorOffsets(h2, subsets), sectors, bitsPerSector) == 0;
        }

        @Override
        public boolean setBits(long address, long hash, boolean singleWriter) {
            int sectors = this.sectors;
            int bits = this.bitsPerSector;
            long line = lineAddress(address, hash);
            long h2 = ProbeMath.secondHash(hash);
            long offsets = sectorOffsets(h2, subsets);
            if (missing(line, h2, offsets, sectors, bits) == 0) {
                return false;
            }
            boolean changed = false;
            for (int s = 0; s < sectors; s++) {
                changed |= CellArray.setBitsOfWord(line + ((offsets >>> (s << 3)) & 0xFF), mask(h2, s * bits, bits),
                        singleWriter);
            }
            return changed;
        }
    }

    /**
     * The sectorized probing for b = 2, S from 1 to 8: the same cells as {@link Sectorized} (its
     * {@link #index} is the definition), with each sector's two multipliers G^(2j+2) and G^(2j+3)
     * folded into the code as constants and the sectors written out one after another, entered at
     * sector S - 1 by a switch, in place of the general loops' per-bit table loads, loop counters
     * and variable shifts, which made the general loops' query cost about twice the same probing
     * written out by hand (docs/BENCHMARKS.md, the sectorized single calls' row).
     *
     * <p>An add tests and sets each word in one pass: a word that holds its two bits already is left
     * alone ({@link CellArray#setBitsOfWord}), so a key present writes nothing without a separate
     * test of all its words first.
     */
    static final class Pairs extends Sectorized {
        private static final long G2 = Sectorized.POWERS[1];
        private static final long G3 = Sectorized.POWERS[2];
        private static final long G4 = Sectorized.POWERS[3];
        private static final long G5 = Sectorized.POWERS[4];
        private static final long G6 = Sectorized.POWERS[5];
        private static final long G7 = Sectorized.POWERS[6];
        private static final long G8 = Sectorized.POWERS[7];
        private static final long G9 = Sectorized.POWERS[8];
        private static final long G10 = Sectorized.POWERS[9];
        private static final long G11 = Sectorized.POWERS[10];
        private static final long G12 = Sectorized.POWERS[11];
        private static final long G13 = Sectorized.POWERS[12];
        private static final long G14 = Sectorized.POWERS[13];
        private static final long G15 = Sectorized.POWERS[14];
        private static final long G16 = Sectorized.POWERS[15];
        private static final long G17 = Sectorized.POWERS[16];

        Pairs(BloomSpec spec, long firstLine) {
            super(spec, firstLine);
        }

        /** The two bits of a sector whose probes multiply h2 by {@code power0} and {@code power1}, as a mask. */
        private static long pair(long h2, long power0, long power1) {
            return (1L << ((h2 * power0) >>> 58)) | (1L << ((h2 * power1) >>> 58));
        }

        /** The bits of {@code mask} missing from the word at byte {@code offsets & 0xFF} of the line. */
        private static long missing(long line, long offsets, long mask) {
            return mask & ~CellArray.wordVolatile(line + (offsets & 0xFF));
        }

        private static boolean set(long line, long offsets, long mask, boolean singleWriter) {
            return CellArray.setBitsOfWord(line + (offsets & 0xFF), mask, singleWriter);
        }

        @Override
        public boolean allBitsSetVolatile(long address, long hash) {
            long line = address + (base(hash) >>> 3);
            long h2 = ProbeMath.secondHash(hash);
            long offsets = sectorOffsets(h2, subsets);
            long missing = 0;
            switch (sectors) { // sector j's byte offset is byte j of offsets
                case 8:
                    missing |= missing(line, offsets >>> 56, pair(h2, G16, G17));
                    // fall through
                case 7:
                    missing |= missing(line, offsets >>> 48, pair(h2, G14, G15));
                    // fall through
                case 6:
                    missing |= missing(line, offsets >>> 40, pair(h2, G12, G13));
                    // fall through
                case 5:
                    missing |= missing(line, offsets >>> 32, pair(h2, G10, G11));
                    // fall through
                case 4:
                    missing |= missing(line, offsets >>> 24, pair(h2, G8, G9));
                    // fall through
                case 3:
                    missing |= missing(line, offsets >>> 16, pair(h2, G6, G7));
                    // fall through
                case 2:
                    missing |= missing(line, offsets >>> 8, pair(h2, G4, G5));
                    // fall through
                default:
                    missing |= missing(line, offsets, pair(h2, G2, G3));
            }
            return missing == 0;
        }

        @Override
        public boolean setBits(long address, long hash, boolean singleWriter) {
            long line = address + (base(hash) >>> 3);
            long h2 = ProbeMath.secondHash(hash);
            long offsets = sectorOffsets(h2, subsets);
            boolean changed = false;
            switch (sectors) {
                case 8:
                    changed |= set(line, offsets >>> 56, pair(h2, G16, G17), singleWriter);
                    // fall through
                case 7:
                    changed |= set(line, offsets >>> 48, pair(h2, G14, G15), singleWriter);
                    // fall through
                case 6:
                    changed |= set(line, offsets >>> 40, pair(h2, G12, G13), singleWriter);
                    // fall through
                case 5:
                    changed |= set(line, offsets >>> 32, pair(h2, G10, G11), singleWriter);
                    // fall through
                case 4:
                    changed |= set(line, offsets >>> 24, pair(h2, G8, G9), singleWriter);
                    // fall through
                case 3:
                    changed |= set(line, offsets >>> 16, pair(h2, G6, G7), singleWriter);
                    // fall through
                case 2:
                    changed |= set(line, offsets >>> 8, pair(h2, G4, G5), singleWriter);
                    // fall through
                default:
                    changed |= set(line, offsets, pair(h2, G2, G3), singleWriter);
            }
            return changed;
        }
    }

    /**
     * Apache Parquet's split-block Bloom filter (parquet-format BloomFilter.md): the block of 256
     * bits is ((h >>> 32) * blocks) >>> 32, and the key sets bit (SALT[i] * (int) h) >>> 27 of
     * 32-bit word i of it, for i in 0..7. Parquet's words are little-endian u32s in a row, so
     * word i's bit b is cell 256 block + 32 i + b of the little-endian u64 cell words: the cells are
     * Parquet's bitset byte for byte. A query or an add reads the block as four u64 words, two of
     * Parquet's each, and an add sets each u64's two bits with one compare-and-set. A block is half
     * a cache line, aligned, so the blocked layout's load-ahead, through {@link #base}, loads the
     * key's one line.
     */
    static final class SplitBlock extends Blocked {
        /** Parquet's eight salts, odd 32-bit constants. */
        static final int[] SALT = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b,
            0x9efc4947, 0x5c6bfb31};
        private static final int BLOCK_SHIFT = 8;

        private final long blocks;

        SplitBlock(BloomSpec spec) {
            super(spec, 0); // 256 cells a block: spec.cellsPerBlock() of the sbbf layout
            this.blocks = spec.cells() >>> BLOCK_SHIFT;
        }

        /** The block of the key whose hash is {@code hash}: the top 32 bits scaled to [0, blocks). */
        static long splitBlock(long hash, long blocks) {
            return ((hash >>> 32) * blocks) >>> 32;
        }

        @Override
        public long base(long hash) {
            return splitBlock(hash, blocks) << BLOCK_SHIFT;
        }

        @Override
        public long step(long hash) {
            return hash;
        }

        @Override
        public long index(long base, long step, int i) {
            return base + (i << 5) + ((SALT[i] * (int) step) >>> 27);
        }

        /** The bits of 32-bit words {@code 2 pair} and {@code 2 pair + 1} of the key, as one u64 mask. */
        private static long mask(int key, int pair) {
            int low = (SALT[2 * pair] * key) >>> 27;
            int high = (SALT[2 * pair + 1] * key) >>> 27;
            return (1L << low) | (1L << (32 + high));
        }

        @Override
        public boolean allBitsSetVolatile(long address, long hash) {
            long at = address + (splitBlock(hash, blocks) << 5);
            int key = (int) hash;
            for (int pair = 0; pair < 4; pair++) {
                long mask = mask(key, pair);
                if ((CellArray.wordVolatile(at + (pair << 3)) & mask) != mask) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean setBits(long address, long hash, boolean singleWriter) {
            long at = address + (splitBlock(hash, blocks) << 5);
            int key = (int) hash;
            boolean changed = false;
            for (int pair = 0; pair < 4; pair++) {
                changed |= CellArray.setBitsOfWord(at + (pair << 3), mask(key, pair), singleWriter);
            }
            return changed;
        }

    }
}

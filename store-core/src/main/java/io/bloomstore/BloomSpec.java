package io.bloomstore;

import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.internal.hashing.ForeignSeeds;
import io.bloomstore.internal.hashing.SeedText;
import io.bloomstore.internal.math.BlockedFppModel;
import io.bloomstore.internal.math.FalsePositiveMath;
import io.bloomstore.internal.math.FppModel;
import io.bloomstore.internal.math.LineSearch;
import io.bloomstore.internal.math.SbbfFppModel;
import io.bloomstore.internal.math.SectorizedFppModel;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The shape of a filter: m cells of w bits, k probes, the layout, the hash algorithm and its seed,
 * plus the n and p it was sized for (kept for reporting; they do not affect probing).
 *
 * <p>Immutable. Build one with {@link #forExpected(long, double)} or {@link #builder()}:
 *
 * <pre>{@code
 * BloomSpec plain   = BloomSpec.forExpected(1_000_000, 0.01);          // m = 9.59 n, k = 7
 * BloomSpec blocked = BloomSpec.builder().expectedKeys(200_000_000).fpp(0.01)
 *                              .layout(Layout.BLOCKED).build();
 * BloomSpec counting = BloomSpec.builder().cells(1 << 20).hashes(5).counterBits(4).build();
 * }</pre>
 *
 * <p>Two filters can be merged, or one reopened for the other, only when their shapes agree:
 * {@link #differenceFrom(BloomSpec)} names the first field that does not.
 */
public final class BloomSpec {
    /** The seed used unless another is asked for: fixed, so filters built apart can be merged. */
    public static final long DEFAULT_SEED = 0x626C_6F6F_6D73_7472L; // "bloomstr"
    /** Fewest probes per key. */
    public static final int MIN_HASHES = 1;
    /** Most probes per key: p = 2^-64 needs 64; more only costs time. */
    public static final int MAX_HASHES = 64;
    /** Most cells: keeps every byte offset of the largest (32-bit) cells inside a signed long. */
    public static final long MAX_CELLS = 1L << 56;
    /** Bits in one cache line, the block of the blocked layout. */
    public static final int BLOCK_BITS = 512;
    /** Most probes a sectorized filter is sized with: 8 sectors of 4 bits, the optimum near p = 1e-15. */
    private static final int MAX_SECTORIZED_HASHES = 32;
    /** Most cells of a {@link Layout#SBBF} filter: 2^32 blocks of 256, as far as Parquet's 32-bit block index reaches. */
    public static final long MAX_SBBF_CELLS = 1L << 40;
    /** Bits in one 4 KiB page, the unit the cells are allocated in. */
    private static final long PAGE_BITS = 4096L * 8;

    private final long cells;
    private final int hashes;
    private final int counterBits;
    private final Layout layout;
    private final HashAlgorithm hashAlgorithm;
    private final long seed;
    private final long expectedKeys;
    private final double targetFpp;
    private final ParquetType parquetType;

    private BloomSpec(Builder b, long cells, int hashes) {
        this.cells = cells;
        this.hashes = hashes;
        this.counterBits = b.counterBits;
        this.layout = b.layout;
        this.hashAlgorithm = b.hashAlgorithm;
        this.seed = b.seed;
        this.expectedKeys = b.expectedKeys;
        this.targetFpp = b.fpp;
        this.parquetType = b.parquetType;
    }

    /**
     * A plain (1-bit, standard layout, default seed) filter sized for n keys at false-positive rate p.
     *
     * @param expectedKeys n, the distinct keys the filter must hold, at least 1
     * @param fpp p, the false-positive rate wanted at n keys, strictly between 0 and 1 (0.01 is 1%)
     * @return the spec, with m and k derived
     * @throws IllegalArgumentException if n or p is out of range, or p at n needs more than {@link #MAX_CELLS}
     */
    public static BloomSpec forExpected(long expectedKeys, double fpp) {
        return builder().expectedKeys(expectedKeys).fpp(fpp).build();
    }

    /**
     * A builder with the defaults: 1-bit cells, standard layout, XXH3-64, {@link #DEFAULT_SEED}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this spec's values, to derive a variant.
     *
     * @return a new builder; changing it leaves this spec as it is
     */
    public Builder toBuilder() {
        return sizing().cells(cells).hashes(hashes);
    }

    /** A builder with this spec's values but m and k, which it derives from n and p. */
    private Builder sizing() {
        Builder b = new Builder().counterBits(counterBits).layout(layout).hashAlgorithm(hashAlgorithm).seed(seed);
        b.expectedKeys = expectedKeys;
        b.fpp = targetFpp;
        b.parquetType = parquetType;
        return b;
    }

    /**
     * m: the number of cells.
     *
     * @return m, from 1 to {@link #MAX_CELLS}
     */
    public long cells() {
        return cells;
    }

    /**
     * k: the number of cells each key touches.
     *
     * @return k, from {@link #MIN_HASHES} to {@link #MAX_HASHES}
     */
    public int hashes() {
        return hashes;
    }

    /**
     * w: bits per cell; 1 for a plain filter, 2..32 for a counting filter.
     *
     * @return w: 1, 2, 4, 8, 16 or 32
     */
    public int counterBits() {
        return counterBits;
    }

    /**
     * Whether cells are counters (w &gt; 1), which allows remove and count.
     *
     * @return true if w &gt; 1
     */
    public boolean isCounting() {
        return counterBits > 1;
    }

    /**
     * Where a key's cells lie: anywhere in the array, or all in one cache line.
     *
     * @return {@link Layout#STANDARD}, {@link Layout#BLOCKED} or {@link Layout#SECTORIZED}
     */
    public Layout layout() {
        return layout;
    }

    /**
     * The hash function keys are hashed with.
     *
     * @return the algorithm, never null
     */
    public HashAlgorithm hashAlgorithm() {
        return hashAlgorithm;
    }

    /**
     * The seed of the hash function; filters combine only with the same seed.
     *
     * @return the seed, any 64-bit value
     */
    public long seed() {
        return seed;
    }

    /**
     * The Parquet physical type of the keys of a {@link Layout#SBBF} filter, which decides how a
     * long or text key is hashed ({@link ParquetType}).
     *
     * @return the type; null for every other layout
     */
    public ParquetType parquetType() {
        return parquetType;
    }

    /**
     * The n this filter was sized for, 0 when it was given by cells and hashes.
     *
     * @return n, or 0 if not sized by keys
     */
    public long expectedKeys() {
        return expectedKeys;
    }

    /**
     * The p this filter was sized for, 0 when it was given by cells and hashes.
     *
     * @return p, a fraction (0.01 is 1%), or 0 if not sized by keys
     */
    public double targetFpp() {
        return targetFpp;
    }

    /**
     * Whether k is the one sizing chooses for this spec's n and p in its layout, as a reader of a
     * region header checks it: in the blocked and sectorized layouts m is a whole number of lines,
     * so a k one off the choice can need the same m, and checking m alone would let a header
     * whose k differs from its cells' pass (a query probing another k than the adds loses keys).
     * In those layouts it costs one rate evaluation for each k the search tries, where sizing anew
     * bisects m for each.
     *
     * @return true if k is sizing's choice; false too for a spec given by cells and hashes (no n, p)
     */
    public boolean hasSizedHashes() {
        if (expectedKeys <= 0 || !(targetFpp > 0)) {
            return false;
        }
        Builder sizing = sizing();
        return switch (layout) {
            case STANDARD -> sizing.sizeStandard().hashes() == hashes;
            case BLOCKED -> sizing.blockedSearch().chooses(cells, hashes);
            case SECTORIZED -> sizing.sectorizedSearch().chooses(cells, hashes);
            case SBBF -> hashes == SbbfFppModel.WORDS; // Parquet's k, whatever n and p
            case GUAVA, SPARK_SKETCH -> false; // the library's k, never sized here
        };
    }

    /**
     * Cells in one 64-byte block of the blocked layout: 512 / w.
     *
     * @return 512 / w, from 16 to 512
     */
    public int cellsPerBlock() {
        return layout == Layout.SBBF ? SbbfFppModel.BLOCK_BITS : BLOCK_BITS / counterBits;
    }

    /**
     * Bytes the cells occupy in the file: m w / 8, rounded up to whole 4 KiB pages, since a file
     * mapping covers whole pages anyway.
     *
     * @return the length in bytes, a multiple of 4096
     */
    public long cellBytes() {
        return cellBytes(cells, counterBits);
    }

    /**
     * The false-positive rate expected after {@code keys} distinct keys.
     *
     * @param keys the number of distinct keys added; 0 gives 0, more than n gives more than p
     * @return the rate, a fraction from 0 to 1
     */
    public double expectedFpp(double keys) {
        return switch (layout) {
            case BLOCKED -> FalsePositiveMath.blockedFpp(cells, hashes, keys, cellsPerBlock());
            case SECTORIZED -> FalsePositiveMath.sectorizedFpp(cells, hashes, ProbeMath.sectors(hashes), keys);
            case SBBF -> new SbbfFppModel().fpp(cells, keys);
            default -> FalsePositiveMath.standardFpp(cells, hashes, keys);
        };
    }

    /**
     * The first field in which {@code other} has another shape than this one, as
     * {@code "name: this vs other"}; empty when the two can be merged or substituted.
     * n and p are not compared: they do not affect where keys land.
     *
     * @param other the shape to compare with
     * @return the first difference, or empty if there is none
     */
    public Optional<String> differenceFrom(BloomSpec other) {
        if (cells != other.cells) {
            return Optional.of("cells (m): " + cells + " vs " + other.cells);
        }
        if (hashes != other.hashes) {
            return Optional.of("hashes (k): " + hashes + " vs " + other.hashes);
        }
        if (counterBits != other.counterBits) {
            return Optional.of("counter bits: " + counterBits + " vs " + other.counterBits);
        }
        if (layout != other.layout) {
            return Optional.of("layout: " + name(layout) + " vs " + name(other.layout));
        }
        if (hashAlgorithm != other.hashAlgorithm) {
            return Optional.of("hash algorithm: " + hashAlgorithm + " vs " + other.hashAlgorithm);
        }
        if (seed != other.seed) {
            return Optional.of("seed: " + SeedText.of(seed) + " vs " + SeedText.of(other.seed));
        }
        if (parquetType != other.parquetType) {
            return Optional.of("Parquet type: " + parquetType + " vs " + other.parquetType);
        }
        return Optional.empty();
    }

    /** A layout as docs/FORMAT.md names it: {@code standard}, {@code blocked} or {@code sectorized}. */
    private static String name(Layout layout) {
        return layout.name().toLowerCase(Locale.ROOT);
    }

    static long cellBytes(long cells, int counterBits) {
        long bits = Math.multiplyExact(cells, counterBits);
        long pages = (bits + PAGE_BITS - 1) / PAGE_BITS;
        return pages * (PAGE_BITS / 8);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BloomSpec)) {
            return false;
        }
        BloomSpec s = (BloomSpec) o;
        return cells == s.cells && hashes == s.hashes && counterBits == s.counterBits && layout == s.layout
                && hashAlgorithm == s.hashAlgorithm && seed == s.seed && expectedKeys == s.expectedKeys
                && Double.compare(targetFpp, s.targetFpp) == 0 && parquetType == s.parquetType;
    }

    @Override
    public int hashCode() {
        return Objects.hash(cells, hashes, counterBits, layout, hashAlgorithm, seed, expectedKeys, targetFpp, parquetType);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "BloomSpec[m=%d, k=%d, w=%d, layout=%s, hash=%s, seed=%s, n=%d, p=%s%s]",
                cells, hashes, counterBits, name(layout), hashAlgorithm, SeedText.of(seed),
                expectedKeys, targetFpp, parquetType == null ? "" : ", parquet type=" + parquetType);
    }

    /**
     * Collects a spec's values; {@link #build()} validates them and derives m and k where asked.
     * Give either {@code expectedKeys} and {@code fpp} (m and k are derived) or {@code cells} and
     * {@code hashes} (taken as they are; n and p, if also given, are only recorded).
     */
    public static final class Builder {
        private long cells;
        private int hashes;
        private int counterBits = 1;
        private Layout layout = Layout.STANDARD;
        private HashAlgorithm hashAlgorithm = HashAlgorithm.XXH3_64;
        private long seed = DEFAULT_SEED;
        private long expectedKeys;
        private double fpp;
        private ParquetType parquetType;
        /** Whether the hash algorithm or the seed was given, which the sbbf layout then checks rather than sets. */
        private boolean hashGiven;

        private Builder() {
        }

        /**
         * n, the number of distinct keys the filter must hold; must be at least 1.
         *
         * @param n the key count
         * @return this builder
         * @throws IllegalArgumentException if {@code n < 1}
         */
        public Builder expectedKeys(long n) {
            if (n <= 0) {
                throw new IllegalArgumentException("expected keys must be at least 1, got " + n);
            }
            this.expectedKeys = n;
            return this;
        }

        /**
         * p, the false-positive rate wanted at n keys; must lie strictly between 0 and 1.
         *
         * @param p the rate, a fraction (0.01 is 1%)
         * @return this builder
         * @throws IllegalArgumentException unless {@code 0 < p < 1}
         */
        public Builder fpp(double p) {
            if (!(p > 0 && p < 1)) {
                throw new IllegalArgumentException("false-positive rate must be in (0, 1) exclusive, got " + p);
            }
            this.fpp = p;
            return this;
        }

        /**
         * m, the number of cells, from 1 to 2^56 (rounded up to whole 64-byte blocks for the blocked
         * and sectorized layouts).
         *
         * @param m the cell count
         * @return this builder
         * @throws IllegalArgumentException if m is outside 1 .. {@link #MAX_CELLS}
         */
        public Builder cells(long m) {
            if (m < 1 || m > MAX_CELLS) {
                throw new IllegalArgumentException("cells must be in [1, " + MAX_CELLS + "], got " + m);
            }
            this.cells = m;
            return this;
        }

        /**
         * k, the probes per key, from 1 to 64.
         *
         * @param k the probe count
         * @return this builder
         * @throws IllegalArgumentException if k is outside {@link #MIN_HASHES} .. {@link #MAX_HASHES}
         */
        public Builder hashes(int k) {
            if (k < MIN_HASHES || k > MAX_HASHES) {
                throw new IllegalArgumentException(
                        "hashes must be in [" + MIN_HASHES + ", " + MAX_HASHES + "], got " + k);
            }
            this.hashes = k;
            return this;
        }

        /**
         * w, bits per cell: 1 (plain filter) or 2, 4, 8, 16, 32 (counting filter).
         *
         * @param w the bits per cell
         * @return this builder
         * @throws IllegalArgumentException if w is not a power of two from 1 to 32
         */
        public Builder counterBits(int w) {
            if (w < 1 || w > 32 || Integer.bitCount(w) != 1) {
                throw new IllegalArgumentException("counter bits must be one of 1, 2, 4, 8, 16, 32, got " + w);
            }
            this.counterBits = w;
            return this;
        }

        /**
         * The layout ({@link Layout#STANDARD} unless given); {@link #build()} sizes a blocked or
         * sectorized filter for it, and refuses a sectorized one of counters.
         *
         * @param layout the layout, not null
         * @return this builder
         */
        public Builder layout(Layout layout) {
            this.layout = Objects.requireNonNull(layout, "layout");
            return this;
        }

        /**
         * The hash function ({@link HashAlgorithm#XXH3_64} unless given).
         *
         * @param algorithm the hash function, not null
         * @return this builder
         */
        public Builder hashAlgorithm(HashAlgorithm algorithm) {
            this.hashAlgorithm = Objects.requireNonNull(algorithm, "hashAlgorithm");
            this.hashGiven = true;
            return this;
        }

        /**
         * Makes this a {@link Layout#SBBF} filter of keys of the Parquet physical type {@code type}
         * (a {@link Layout#SBBF} filter given no type has {@link ParquetType#BYTE_ARRAY} keys,
         * which hash every key as its canonical bytes). Its hash is {@link HashAlgorithm#XXH64} with
         * seed 0 and k is 8, as Parquet's filters have them: a build with another hash, seed or k
         * given is refused. Give n and p, or m (a multiple of 256 cells, at most 2^40), as for any filter.
         *
         * @param type the physical type of the keys, not null
         * @return this builder
         */
        public Builder parquetType(ParquetType type) {
            this.parquetType = Objects.requireNonNull(type, "type");
            this.layout = Layout.SBBF;
            return this;
        }

        /**
         * The hash seed; filters must share it to be merged. Default {@link #DEFAULT_SEED}.
         *
         * @param seed any 64-bit value
         * @return this builder
         */
        public Builder seed(long seed) {
            this.seed = seed;
            this.hashGiven = true;
            return this;
        }

        /**
         * Validates and derives.
         *
         * @return the spec, with m and k derived from n and p if they were not given
         * @throws IllegalArgumentException when neither (n, p) nor (m, k) was given, or p cannot be
         *     reached within {@link #MAX_CELLS}
         */
        public BloomSpec build() {
            if (layout.isImported() || hashAlgorithm == HashAlgorithm.MURMUR3_X64_128
                    || hashAlgorithm == HashAlgorithm.MURMUR3_X86_32) {
                checkImported();
                return new BloomSpec(this, cells, hashes);
            }
            if (layout == Layout.SECTORIZED && counterBits != 1) {
                throw new IllegalArgumentException("the sectorized layout has 1-bit cells only, not " + counterBits
                        + "-bit counters; use the blocked layout for a counting filter");
            }
            if (layout == Layout.SBBF || parquetType != null) {
                return buildSbbf();
            }
            if (hashAlgorithm == HashAlgorithm.XXH64) {
                throw new IllegalArgumentException("the XXH64 hash belongs to the sbbf layout only (Parquet's), not the "
                        + name(layout) + " layout");
            }
            if (cells > 0 && hashes > 0) {
                long m = cells;
                if (layout != Layout.STANDARD) {
                    long perBlock = BLOCK_BITS / counterBits;
                    m = Math.min(MAX_CELLS, (m + perBlock - 1) / perBlock * perBlock);
                }
                return new BloomSpec(this, m, hashes);
            }
            if (expectedKeys > 0 && fpp > 0) {
                switch (layout) {
                    case BLOCKED:
                        return sizeBlocked();
                    case SECTORIZED:
                        return sizeSectorized();
                    default:
                        return sizeStandard();
                }
            }
            throw new IllegalArgumentException(
                    "give either expected keys and a false-positive rate, or cells and hashes");
        }

        /**
         * Parquet's filter admits one shape of everything but its size: checked here, so that a
         * header holding another is refused rather than probed as something it is not.
         */
        private BloomSpec buildSbbf() {
            if (layout != Layout.SBBF) {
                throw new IllegalArgumentException("a Parquet type belongs to the sbbf layout only, not the "
                        + name(layout) + " layout");
            }
            if (parquetType == null) {
                parquetType = ParquetType.BYTE_ARRAY;
            }
            if (!hashGiven) {
                hashAlgorithm = HashAlgorithm.XXH64;
                seed = 0;
            }
            if (counterBits != 1 || hashAlgorithm != HashAlgorithm.XXH64 || seed != 0
                    || (hashes != 0 && hashes != SbbfFppModel.WORDS)) {
                throw new IllegalArgumentException("the sbbf layout is Parquet's: 1-bit cells, k = 8, XXH64 with seed 0,"
                        + " not w = " + counterBits + ", k = " + hashes + ", " + hashAlgorithm + " seed " + SeedText.of(seed));
            }
            long perBlock = SbbfFppModel.BLOCK_BITS;
            if (cells > 0) {
                long m = (cells + perBlock - 1) / perBlock * perBlock;
                if (m > MAX_SBBF_CELLS) {
                    throw new IllegalArgumentException("an sbbf filter has at most " + MAX_SBBF_CELLS
                            + " cells (2^32 blocks, the reach of Parquet's block index), not " + cells);
                }
                return new BloomSpec(this, m, SbbfFppModel.WORDS);
            }
            if (expectedKeys > 0 && fpp > 0) {
                SbbfFppModel model = new SbbfFppModel();
                long blocks = fewestBlocks(model, (int) perBlock, MAX_SBBF_CELLS / perBlock);
                if (blocks == Long.MAX_VALUE) {
                    throw new IllegalArgumentException(unreachable());
                }
                return new BloomSpec(this, blocks * perBlock, SbbfFppModel.WORDS);
            }
            throw new IllegalArgumentException("give either expected keys and a false-positive rate, or cells");
        }

        /**
         * The fields of a spec of an imported layout ({@link Layout#GUAVA}, {@link Layout#SPARK_SKETCH}),
         * or of their hash algorithms: the library's m and k as they are, never sized from n and p
         * (docs/FORMAT.md, "Imported layouts"; the seed field per {@link ForeignSeeds}).
         */
        private void checkImported() {
            HashAlgorithm own = layout == Layout.GUAVA ? HashAlgorithm.MURMUR3_X64_128 : HashAlgorithm.MURMUR3_X86_32;
            if (!layout.isImported()) {
                throw new IllegalArgumentException("hash algorithm " + hashAlgorithm + " is only for the "
                        + (hashAlgorithm == HashAlgorithm.MURMUR3_X64_128 ? "guava" : "spark_sketch") + " layout");
            }
            String name = layout == Layout.GUAVA ? "guava" : "spark_sketch";
            String verb = layout == Layout.GUAVA ? "import-guava" : "import-spark-sketch";
            if (hashAlgorithm == HashAlgorithm.XXH3_64 || cells <= 0 || hashes <= 0) {
                throw new IllegalArgumentException("a " + name + " filter is made by importing the library's stream"
                        + " (bloomstore " + verb + "), not created or sized: its cells and hashes are the library's");
            }
            if (hashAlgorithm != own) {
                throw new IllegalArgumentException("the " + name + " layout hashes with " + own + ", not " + hashAlgorithm);
            }
            if (counterBits != 1) {
                throw new IllegalArgumentException("the " + name + " layout has 1-bit cells only, not " + counterBits);
            }
            if (cells % 64 != 0) {
                throw new IllegalArgumentException("a " + name + " filter's cells are whole 64-bit words, not " + cells);
            }
            if (layout == Layout.GUAVA && seed != ForeignSeeds.GUAVA_MITZ_32 && seed != ForeignSeeds.GUAVA_MITZ_64) {
                throw new IllegalArgumentException("a guava filter's seed field is Guava's strategy ordinal, 0 or 1, not " + seed);
            }
            int version = ForeignSeeds.sparkVersion(seed);
            if (layout == Layout.SPARK_SKETCH && version != 1 && version != 2) {
                throw new IllegalArgumentException("a spark_sketch filter's seed field holds version 1 or 2 in its"
                        + " bits 32 to 63, not " + version);
            }
            if (layout == Layout.SPARK_SKETCH && version == 1 && ForeignSeeds.sparkSeed(seed) != 0) {
                throw new IllegalArgumentException("a version 1 spark sketch hashes with seed 0, not "
                        + ForeignSeeds.sparkSeed(seed));
            }
        }

        /**
         * k = round(log2(1/p)) is the optimum for the standard layout; then the fewest m that
         * reach p with that k exactly, from (1 - e^(-kn/m))^k = p: m = -kn / ln(1 - p^(1/k)).
         * (Sizing m first and rounding k afterwards, as most libraries do, can miss p by a few per
         * cent: 0.01 gives k = 6.64 -> 7 and a real rate of 1.003%.)
         */
        private BloomSpec sizeStandard() {
            int k = hashes > 0 ? hashes
                    : (int) Math.min(MAX_HASHES, Math.max(MIN_HASHES, Math.round(-StrictMath.log(fpp) / StrictMath.log(2))));
            double m = Math.ceil(-k * (double) expectedKeys / StrictMath.log1p(-StrictMath.pow(fpp, 1.0 / k)));
            if (!(m <= MAX_CELLS)) {
                throw new IllegalArgumentException(unreachable());
            }
            return new BloomSpec(this, Math.max(1, (long) m), k);
        }

        /**
         * For each k near the standard optimum log2(1/p), the fewest whole blocks whose
         * Poisson-averaged rate ({@link FalsePositiveMath#blockedFpp}) reaches p; the smallest
         * filter wins. At p = 1% with 1-bit cells this lands at 9.9 bits per key with k = 6,
         * against 9.6 for the standard layout. The blocked optimum never lies above the standard
         * k (crowded blocks punish extra probes) and, for p down to 1e-9, within 8 below it.
         */
        private BloomSpec sizeBlocked() {
            return fewestBlocks(blockedSearch());
        }

        private LineSearch blockedSearch() {
            int perBlock = BLOCK_BITS / counterBits;
            int standardK = (int) Math.round(-StrictMath.log(fpp) / StrictMath.log(2));
            int toK = hashes > 0 ? hashes : Math.min(Math.min(MAX_HASHES, perBlock), Math.max(MIN_HASHES, standardK + 1));
            int fromK = hashes > 0 ? hashes : Math.max(MIN_HASHES, toK - 12);
            return new LineSearch(expectedKeys, fpp, perBlock, MAX_CELLS / perBlock, fromK, toK,
                    k -> BlockedFppModel.of(perBlock, k));
        }

        /**
         * For each k from 1 to the standard optimum log2(1/p) + 1, at most
         * {@value #MAX_SECTORIZED_HASHES} (S sectors of b bits each, S from k by the format's
         * rule), the fewest whole lines whose rate under {@link SectorizedFppModel} reaches p,
         * searched as {@link #sizeBlocked} searches; the smallest filter wins, the smallest k on a
         * tie. As for the blocked layout, crowded lines punish extra probes and the optimum lies
         * below the standard k (S = 3, b = 2 at 1%; k = 21 at 1e-9). Files sized before this rule
         * are accepted by {@link io.bloomstore.internal.math.LegacySectorizedFppModel#sizing}.
         */
        private BloomSpec sizeSectorized() {
            return fewestBlocks(sectorizedSearch());
        }

        private LineSearch sectorizedSearch() {
            int standardK = (int) Math.round(-StrictMath.log(fpp) / StrictMath.log(2));
            int toK = hashes > 0 ? hashes : Math.min(MAX_SECTORIZED_HASHES, Math.max(MIN_HASHES, standardK + 1));
            int fromK = hashes > 0 ? hashes : MIN_HASHES;
            return new LineSearch(expectedKeys, fpp, BLOCK_BITS, MAX_CELLS / BLOCK_BITS, fromK, toK,
                    k -> new SectorizedFppModel(k, ProbeMath.sectors(k)));
        }

        /** The spec of the fewest whole blocks {@code search} finds. */
        private BloomSpec fewestBlocks(LineSearch search) {
            long[] choice = search.fewest();
            if (choice == null) {
                throw new IllegalArgumentException(unreachable());
            }
            return new BloomSpec(this, choice[0] * search.perBlock(), (int) choice[1]);
        }

        /** Smallest block count reaching {@code fpp} under {@code model}, or Long.MAX_VALUE if none fits. */
        private long fewestBlocks(FppModel model, int perBlock, long maxBlocks) {
            return LineSearch.fewestBlocks(model, perBlock, maxBlocks, expectedKeys, fpp);
        }

        private String unreachable() {
            return String.format(Locale.ROOT,
                    "a false-positive rate of %s for %d keys needs more than %d cells; raise the rate or split the keys",
                    fpp, expectedKeys, MAX_CELLS);
        }
    }
}

package io.bloomstore.internal.format;

import static io.bloomstore.internal.format.ContainerDescriptor.*;

import io.bloomstore.BloomSpec;
import io.bloomstore.HashAlgorithm;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.Layout;
import io.bloomstore.internal.hashing.SeedText;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The immutable header of a segmented file (format version 2) and the sizing of its regions: the
 * only code that knows the container header's bytes ({@link ContainerDescriptor} has the offsets).
 *
 * <p>Growing chain (Almeida, Baquero, Preguiça &amp; Hutchison 2007): segment i is sized for
 * n_i = ceil(n s^i) keys at rate p_i = P (1 - r) r^i. A query probes every segment and is a false
 * positive if any one is, so by the union bound its rate is at most
 * <b>sum_i p_i = P (1 - r) sum_i r^i &lt; P (1 - r) / (1 - r) = P</b>, however many segments there
 * are. Growing each segment by s keeps the number of segments logarithmic in the keys
 * (log_s(N / n)); tightening by r costs each new segment log2(1/r) more bits per key (0.23 bits at
 * r = 0.85), the price of a bound that holds forever.
 *
 * <p>Windowed ring: L + 1 slots, one per epoch of E = window / L ms; a query probes the L + 1 slots
 * of epochs e - L .. e and is a false positive if any is, so each slot is sized at
 * <b>p_slot = 1 - (1 - P)^(1 / (L + 1))</b> (then 1 - (1 - p_slot)^(L + 1) = P exactly, for
 * independent slots) for <b>ceil(n / L)</b> keys, one epoch's share of the n keys expected per window.
 */
public record ContainerHeader(int kind, Layout layout, HashAlgorithm hashAlgorithm, int counterBits, int tableCapacity,
        long expectedKeys, double targetFpp, long seed, long createdMillis, double growthFactor,
        double tighteningRatio, long maxBytes, long windowMillis, int epochs, long epochMillis) {

    /** Growth factors allowed: 1 (equal segments) to 16. */
    public static final double MAX_GROWTH = 16;
    /** Epochs allowed in a window: the ring of L + 1 slots must fit the table. */
    public static final int MAX_EPOCHS = 64;
    /**
     * How far a region's stored p may lie from p_i, relatively: a few ulps are a writer's libm
     * (docs/FORMAT.md, "Sizing"); the next segment's p_i is r times this one's.
     */
    public static final double REGION_FPP_TOLERANCE = 1e-9;

    /** A growing chain's header, checked. */
    public static ContainerHeader growing(Layout layout, long seed, long n, double p, double growth, double ratio,
            long maxBytes, long createdMillis) {
        requireRange("expected keys", n >= 1, n, "at least 1");
        requireRange("false-positive rate", p > 0 && p < 1, p, "strictly between 0 and 1");
        requireRange("growth factor", growth >= 1 && growth <= MAX_GROWTH, growth, "in [1, " + MAX_GROWTH + "]");
        requireRange("tightening ratio", ratio > 0 && ratio < 1, ratio, "strictly between 0 and 1");
        requireRange("max bytes", maxBytes >= 0, maxBytes, "0 (no limit) or more");
        return new ContainerHeader(KIND_GROWING, layout, HashAlgorithm.XXH3_64, 1, TABLE_ENTRIES, n, p, seed,
                createdMillis, growth, ratio, maxBytes, 0, 0, 0);
    }

    /** A windowed ring's header, checked: E = floor(window / L) ms, and the window kept is L E. */
    public static ContainerHeader windowed(Layout layout, long seed, long n, double p, long windowMillis, int epochs,
            long createdMillis) {
        requireRange("expected keys", n >= 1, n, "at least 1");
        requireRange("false-positive rate", p > 0 && p < 1, p, "strictly between 0 and 1");
        requireRange("epochs", epochs >= 1 && epochs <= MAX_EPOCHS, epochs, "in [1, " + MAX_EPOCHS + "]");
        requireRange("window (ms)", windowMillis >= epochs, windowMillis, "at least one millisecond per epoch");
        long epochMillis = windowMillis / epochs;
        return new ContainerHeader(KIND_WINDOWED, layout, HashAlgorithm.XXH3_64, 1, epochs + 1, n, p, seed,
                createdMillis, 0, 0, 0, epochMillis * epochs, epochs, epochMillis);
    }

    /** Whether this is a growing chain (else a windowed ring). */
    public boolean isGrowing() {
        return kind == KIND_GROWING;
    }

    /**
     * The shape of region i: segment i of a chain, or any slot of a ring (all slots are alike).
     *
     * @throws IllegalArgumentException if the region would need more than {@link BloomSpec#MAX_CELLS} cells
     */
    public BloomSpec regionSpec(int i) {
        return sized(regionKeys(i), regionFpp(i), 0);
    }

    /** n_i: the keys region i is sized for (docs/FORMAT.md, "Sizing the regions"). */
    public long regionKeys(int i) {
        if (isGrowing()) {
            return (long) Math.min(Long.MAX_VALUE / 4.0, Math.ceil(expectedKeys * StrictMath.pow(growthFactor, i)));
        }
        return (expectedKeys + epochs - 1) / epochs;
    }

    /** p_i: the false-positive rate region i is sized for. */
    public double regionFpp(int i) {
        if (isGrowing()) {
            return targetFpp * (1 - tighteningRatio) * StrictMath.pow(tighteningRatio, i);
        }
        return -StrictMath.expm1(StrictMath.log1p(-targetFpp) / (epochs + 1));
    }

    /** A region of this file's layout and seed sized for {@code keys} at {@code fpp}: with {@code hashes} k, or k chosen if 0. */
    private BloomSpec sized(long keys, double fpp, int hashes) {
        BloomSpec.Builder builder = BloomSpec.builder().expectedKeys(keys).fpp(fpp).layout(layout)
                .hashAlgorithm(hashAlgorithm).counterBits(counterBits).seed(seed);
        return (hashes > 0 ? builder.hashes(hashes) : builder).build();
    }

    /**
     * Whether region i needs more than {@link BloomSpec#MAX_CELLS} cells in any layout, so that
     * sizing it would be refused: no layout's filter reaches p with fewer than n ln(1/p) / ln(2)^2
     * cells, the standard layout's optimum, and this checks twice that bound. It spares the search
     * over k that sizing a blocked region runs, which for the keys and rate of a segment far down the
     * table costs a short-lived process more than all its other work.
     */
    private boolean beyondAnyLayout(int i) {
        double ln2 = StrictMath.log(2);
        return regionKeys(i) * -StrictMath.log(regionFpp(i)) / (ln2 * ln2) > 2.0 * BloomSpec.MAX_CELLS;
    }

    /**
     * Checks region i's own header against the container's sizing of its place (docs/FORMAT.md,
     * "Sizing the regions"): the container's layout, hash algorithm, w and seed; n = n_i; p within
     * {@link #REGION_FPP_TOLERANCE} of p_i, as a writer whose pow, expm1 or log1p differs from
     * fdlibm's by an ulp or so computes it; k the one sizing chooses for the region's own stored n
     * and p ({@link BloomSpec#hasSizedHashes}); and m what sizing gives for its n, p and k. A
     * sectorized region whose m and k are not may have those of the sizing of before, which
     * {@code sizedBefore} judges (docs/FORMAT.md, "Sizing the regions").
     *
     * @throws InvalidFilterFileException ({@link Problem#BAD_FIELD}) naming the region and the first field that differs
     */
    public void checkRegion(Path path, int i, BloomSpec actual, Predicate<BloomSpec> sizedBefore)
            throws InvalidFilterFileException {
        String differs = null;
        double fpp = regionFpp(i);
        if (actual.layout() != layout) {
            differs = "layout " + actual.layout() + " where the container's is " + layout;
        } else if (actual.hashAlgorithm() != hashAlgorithm) {
            differs = "hash algorithm " + actual.hashAlgorithm() + " where the container's is " + hashAlgorithm;
        } else if (actual.counterBits() != counterBits) {
            differs = "counter bits " + actual.counterBits() + " where the container's are " + counterBits;
        } else if (actual.seed() != seed) {
            differs = "seed " + SeedText.of(actual.seed()) + " where the container's is " + SeedText.of(seed);
        } else if (actual.expectedKeys() != regionKeys(i)) {
            differs = "expected keys n = " + actual.expectedKeys() + " where the container's sizing gives " + regionKeys(i);
        } else if (!(Math.abs(actual.targetFpp() - fpp) <= REGION_FPP_TOLERANCE * fpp)) {
            differs = "false-positive rate p = " + actual.targetFpp() + " where the container's sizing gives " + fpp;
        } else {
            BloomSpec sized = sized(actual.expectedKeys(), actual.targetFpp(), actual.hashes());
            if (sized.cells() != actual.cells()) {
                differs = "m = " + actual.cells() + " cells where sizing its n, p and k gives " + sized.cells();
            } else if (!actual.hasSizedHashes()) {
                differs = "k = " + actual.hashes() + " hashes where sizing its n and p gives "
                        + sized(actual.expectedKeys(), actual.targetFpp(), 0).hashes();
            }
            if (differs != null && layout == Layout.SECTORIZED && sizedBefore.test(actual)) {
                differs = null;
            }
        }
        if (differs != null) {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, (isGrowing() ? "segment " : "slot ") + i
                    + "'s own header has " + differs + "; restore the file from a pack");
        }
    }

    /**
     * The keys a growing chain takes before its table of segments is full, after which its adds
     * fail whatever its max size: the sum of the table's segments' keys. Long.MAX_VALUE when the
     * table cannot fill, because the segment after its last entry could not exist (more than
     * {@link BloomSpec#MAX_CELLS} cells or {@link BloomSpec#MAX_HASHES} hashes): then the max size,
     * the disk, or a segment too large to map stops the growth first, as for any chain. At a
     * growth factor of 1.5 or more this is so for every n and P; at 1 it never is.
     */
    public long keysBeforeTableFull() {
        if (beyondAnyLayout(tableCapacity)) {
            return Long.MAX_VALUE;
        }
        try {
            regionSpec(tableCapacity);
            long keys = 0;
            for (int i = 0; i < tableCapacity; i++) {
                keys = keys + regionKeys(i) < 0 ? Long.MAX_VALUE - 1 : keys + regionKeys(i);
            }
            return keys;
        } catch (IllegalArgumentException tooLarge) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * The shapes of regions 0 .. {@code regions - 1}. A ring's slots share one shape, sized once:
     * sizing a blocked region runs {@link io.bloomstore.internal.math.BlockedFppModel}, a numeric sum
     * over block fills, which 65 slots would otherwise pay 65 times at every create, merge and verify.
     *
     * @throws IllegalArgumentException if a region would need more than {@link BloomSpec#MAX_CELLS} cells
     */
    public List<BloomSpec> regionSpecs(int regions) {
        if (!isGrowing()) {
            return Collections.nCopies(regions, regionSpec(0));
        }
        List<BloomSpec> specs = new ArrayList<>(regions);
        for (int i = 0; i < regions; i++) {
            specs.add(regionSpec(i));
        }
        return specs;
    }

    /** The bytes of a region of shape {@code spec}: its header page and its cells. */
    public static long regionLength(BloomSpec spec) {
        return FilterFileDescriptor.CELLS_START + spec.cellBytes();
    }

    /**
     * The first field in which {@code other} differs from this header among those that decide
     * whether two files combine region by region (docs/FORMAT.md, "Merge"): the kind, then what
     * sizes every region (layout, hash, w, seed, n, P, then s and r of a chain, W and L of a
     * ring). The creation time and a chain's max bytes may differ.
     */
    public Optional<String> differenceFrom(ContainerHeader other) {
        List<Object[]> fields = new ArrayList<>(List.of(
                new Object[] {"kind", isGrowing() ? "growing" : "windowed", other.isGrowing() ? "growing" : "windowed"},
                new Object[] {"layout", layout, other.layout},
                new Object[] {"hash algorithm", hashAlgorithm, other.hashAlgorithm},
                new Object[] {"counter bits", counterBits, other.counterBits},
                new Object[] {"seed", SeedText.of(seed), SeedText.of(other.seed)},
                new Object[] {"expected keys (n)", expectedKeys, other.expectedKeys},
                new Object[] {"false-positive rate (P)", targetFpp, other.targetFpp}));
        if (isGrowing()) {
            fields.add(new Object[] {"growth factor", growthFactor, other.growthFactor});
            fields.add(new Object[] {"tightening ratio", tighteningRatio, other.tighteningRatio});
        } else {
            fields.add(new Object[] {"window (ms)", windowMillis, other.windowMillis});
            fields.add(new Object[] {"epochs", epochs, other.epochs});
        }
        return fields.stream().filter(field -> !field[1].equals(field[2]))
                .map(field -> field[0] + ": " + field[1] + " vs " + field[2]).findFirst();
    }

    /** This header with another creation time: a merge's result is a new file. */
    public ContainerHeader withCreated(long millis) {
        return new ContainerHeader(kind, layout, hashAlgorithm, counterBits, tableCapacity, expectedKeys, targetFpp,
                seed, millis, growthFactor, tighteningRatio, maxBytes, windowMillis, epochs, epochMillis);
    }

    /** The 128 header bytes, CRC32C included. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(FilterFileDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(FilterFileDescriptor.MAGIC_OFFSET, FilterFileDescriptor.MAGIC);
        b.putShort(FilterFileDescriptor.VERSION_OFFSET, (short) FORMAT_VERSION);
        b.putShort(FilterFileDescriptor.HEADER_LENGTH_OFFSET, (short) FilterFileDescriptor.HEADER_LENGTH);
        b.put(FilterFileDescriptor.LAYOUT_OFFSET, (byte) FormatIds.of(layout));
        b.put(FilterFileDescriptor.HASH_ALGORITHM_OFFSET, (byte) FormatIds.of(hashAlgorithm));
        b.put(FilterFileDescriptor.COUNTER_BITS_OFFSET, (byte) counterBits);
        b.put(KIND_OFFSET, (byte) kind);
        b.putInt(TABLE_CAPACITY_OFFSET, tableCapacity);
        b.putLong(EXPECTED_KEYS_OFFSET, expectedKeys);
        b.putDouble(TARGET_FPP_OFFSET, targetFpp);
        b.putLong(SEED_OFFSET, seed);
        b.putLong(CREATED_MILLIS_OFFSET, createdMillis);
        if (isGrowing()) {
            b.putDouble(PARAMETER_1_OFFSET, growthFactor);
            b.putDouble(PARAMETER_2_OFFSET, tighteningRatio);
            b.putLong(PARAMETER_3_OFFSET, maxBytes);
        } else {
            b.putLong(PARAMETER_1_OFFSET, windowMillis);
            b.putLong(PARAMETER_2_OFFSET, epochs);
            b.putLong(PARAMETER_3_OFFSET, epochMillis);
        }
        b.putInt(FilterFileDescriptor.HEADER_CRC_OFFSET, FilterHeader.crc(b.array()));
        return b.array();
    }

    /**
     * Reads and checks a container header: magic, version, CRC32C, then every field, in that order.
     *
     * @param bytes at least the first 128 bytes of the file (fewer: {@link Problem#TOO_SHORT})
     */
    public static ContainerHeader decode(Path path, byte[] bytes) throws InvalidFilterFileException {
        if (bytes.length < FilterFileDescriptor.HEADER_LENGTH) {
            throw new InvalidFilterFileException(path, Problem.TOO_SHORT, "too short to be a bloomstore filter ("
                    + bytes.length + " bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, FilterFileDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getLong(FilterFileDescriptor.MAGIC_OFFSET) != FilterFileDescriptor.MAGIC) {
            throw new InvalidFilterFileException(path, Problem.BAD_MAGIC,
                    "not a bloomstore filter (no BLOOMSTR magic number at the start)");
        }
        int version = Short.toUnsignedInt(b.getShort(FilterFileDescriptor.VERSION_OFFSET));
        if (version != FORMAT_VERSION) {
            throw new InvalidFilterFileException(path, Problem.UNSUPPORTED_VERSION, "format version " + version
                    + " is not a growing or windowed filter (those are version " + FORMAT_VERSION + ")"
                    + (version == FilterFileDescriptor.FORMAT_VERSION || version == FilterFileDescriptor.UNBOUND_FORMAT_VERSION
                            ? "; open it as a plain filter" : ""));
        }
        int stored = b.getInt(FilterFileDescriptor.HEADER_CRC_OFFSET);
        int actual = FilterHeader.crc(bytes);
        if (stored != actual) {
            throw new InvalidFilterFileException(path, Problem.HEADER_CHECKSUM, String.format(
                    "container header is damaged (CRC32C %08x, expected %08x); restore the file from a pack",
                    actual, stored));
        }
        try {
            return decodeFields(path, b);
        } catch (IllegalArgumentException e) {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "header field out of range: " + e.getMessage(), e);
        }
    }

    private static ContainerHeader decodeFields(Path path, ByteBuffer b) throws InvalidFilterFileException {
        int headerLength = Short.toUnsignedInt(b.getShort(FilterFileDescriptor.HEADER_LENGTH_OFFSET));
        requireField(path, "header length", headerLength == FilterFileDescriptor.HEADER_LENGTH, headerLength, "must be 128");
        Layout layout = FormatIds.layout(Byte.toUnsignedInt(b.get(FilterFileDescriptor.LAYOUT_OFFSET)));
        FormatIds.hashAlgorithm(Byte.toUnsignedInt(b.get(FilterFileDescriptor.HASH_ALGORITHM_OFFSET)));
        int w = Byte.toUnsignedInt(b.get(FilterFileDescriptor.COUNTER_BITS_OFFSET));
        requireField(path, "counter bits", w == 1, w, "must be 1 in version " + FORMAT_VERSION);
        int kind = Byte.toUnsignedInt(b.get(KIND_OFFSET));
        int flags = b.getInt(FLAGS_OFFSET);
        requireField(path, "flags", flags == 0, flags, "no flag is defined in version " + FORMAT_VERSION);
        long n = b.getLong(EXPECTED_KEYS_OFFSET);
        double p = b.getDouble(TARGET_FPP_OFFSET);
        long seed = b.getLong(SEED_OFFSET);
        long created = b.getLong(CREATED_MILLIS_OFFSET);
        ContainerHeader header;
        if (kind == KIND_GROWING) {
            header = growing(layout, seed, n, p, b.getDouble(PARAMETER_1_OFFSET), b.getDouble(PARAMETER_2_OFFSET),
                    b.getLong(PARAMETER_3_OFFSET), created);
        } else if (kind == KIND_WINDOWED) {
            long epochs = b.getLong(PARAMETER_2_OFFSET);
            requireField(path, "epochs", epochs >= 1 && epochs <= MAX_EPOCHS, epochs, "must be in [1, " + MAX_EPOCHS + "]");
            long window = b.getLong(PARAMETER_1_OFFSET);
            header = windowed(layout, seed, n, p, window, (int) epochs, created);
            requireField(path, "epoch length", b.getLong(PARAMETER_3_OFFSET) == header.epochMillis,
                    b.getLong(PARAMETER_3_OFFSET), "must be window / epochs = " + header.epochMillis);
            // a writer stores the window it keeps, L E: never the D it was asked for
            requireField(path, "window", window == header.windowMillis, window,
                    "must be epochs x epoch length = " + header.windowMillis);
        } else {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "header field kind is " + kind
                    + ": must be " + KIND_GROWING + " (growing) or " + KIND_WINDOWED + " (windowed)");
        }
        int capacity = b.getInt(TABLE_CAPACITY_OFFSET);
        requireField(path, "table capacity", capacity == header.tableCapacity, capacity,
                "must be " + header.tableCapacity);
        return header;
    }

    private static void requireRange(String field, boolean ok, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(field + " must be " + rule + ", got " + value);
        }
    }

    private static void requireField(Path path, String field, boolean ok, Object value, String rule)
            throws InvalidFilterFileException {
        if (!ok) {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "header field " + field + " is " + value + ": " + rule);
        }
    }

}

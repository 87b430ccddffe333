package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FormatReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sbbf layout (docs/FORMAT.md, "Split-block layout"): a key's bits are where Parquet's
 * split-block filter puts them (against the format's formula written out independently in
 * {@link FormatReference}; against parquet-java itself in store-spark's {@code ParquetFiltersSparkTest}),
 * keys are hashed as their Parquet type's PLAIN encoding, the header keeps the type, sizing meets
 * p, and folding a filter is exactly building the smaller one.
 */
class SbbfLayoutTest {
    private static final LongHashFunction XXH64 = LongHashFunction.xx(0);

    @TempDir
    Path dir;

    @Test
    void bitsAreParquetsAndTheCellsAreItsBitset() throws Exception {
        BloomSpec spec = BloomSpec.builder().parquetType(ParquetType.INT64).cells(1024 * 8).build();
        long[] expected = new long[(int) (spec.cells() / 64)];
        try (BloomFilter filter = BloomFilter.create(dir.resolve("f.bloom"), spec)) {
            SplittableRandom random = new SplittableRandom(1);
            for (int i = 0; i < 500; i++) {
                long key = random.nextLong();
                filter.add(key);
                for (long cell : FormatReference.sbbfIndices(XXH64.hashLong(key), spec.cells())) {
                    expected[(int) (cell >>> 6)] |= 1L << cell;
                }
            }
        }
        ByteBuffer cells = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("f.bloom")), FilterFileDescriptor.CELLS_START,
                expected.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        long[] actual = new long[expected.length];
        cells.slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(actual);
        assertArrayEquals(expected, actual);
    }

    @Test
    void keysAreHashedAsTheirParquetTypesPlainEncoding() {
        KeyHasher int32 = KeyHasher.of(BloomSpec.builder().parquetType(ParquetType.INT32).cells(256).build());
        assertEquals(XXH64.hashInt(-7), int32.hash(-7L));
        assertEquals(XXH64.hashInt(-7), int32.hash("-7"));
        assertThrows(IllegalArgumentException.class, () -> int32.hash(1L << 40));
        assertThrows(IllegalArgumentException.class, () -> int32.hash("seven"));
        KeyHasher int64 = KeyHasher.of(BloomSpec.builder().parquetType(ParquetType.INT64).cells(256).build());
        assertEquals(XXH64.hashLong(1L << 40), int64.hash(1L << 40));
        assertEquals(XXH64.hashLong(1L << 40), int64.hash(Long.toString(1L << 40)));
        KeyHasher doubles = KeyHasher.of(BloomSpec.builder().parquetType(ParquetType.DOUBLE).cells(256).build());
        assertEquals(XXH64.hashLong(Double.doubleToRawLongBits(2.5)), doubles.hash("2.5"));
        assertEquals(XXH64.hashLong(Double.doubleToRawLongBits(3.0)), doubles.hash(3L));
        KeyHasher floats = KeyHasher.of(BloomSpec.builder().parquetType(ParquetType.FLOAT).cells(256).build());
        assertEquals(XXH64.hashInt(Float.floatToRawIntBits(2.5f)), floats.hash("2.5"));
        KeyHasher binary = KeyHasher.of(BloomSpec.builder().parquetType(ParquetType.BYTE_ARRAY).cells(256).build());
        assertEquals(XXH64.hashBytes("héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8)), binary.hash("héllo"));
    }

    /** Key files are text: in a numeric filter each line is the number it writes, as the command line reads it. */
    @Test
    void linesOfKeysInANumericFilterAreNumbers() throws Exception {
        BloomSpec spec = ParquetFilters.spec(ParquetType.INT32, 1000, 0.01, false);
        try (BloomFilter filter = BloomFilter.create(dir.resolve("k.bloom"), spec);
                KeySource lines = KeySource.lines(new java.io.ByteArrayInputStream("7\n-3\n".getBytes()))) {
            lines.addTo(filter);
            assertTrue(filter.mightContain(7L));
            assertTrue(filter.mightContain(-3L));
            assertEquals(XXH64.hashInt(7), filter.hasher().hashText("7".getBytes(), 0, 1));
        }
    }

    @Test
    void theHeaderKeepsTheTypeAndRefusesAnotherShape() throws Exception {
        Path file = dir.resolve("t.bloom");
        BloomSpec spec = ParquetFilters.spec(ParquetType.DOUBLE, 1000, 0.01, false);
        BloomFilter.create(file, spec).close();
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(spec, filter.spec());
            assertEquals(ParquetType.DOUBLE, filter.spec().parquetType());
            assertEquals(HashAlgorithm.XXH64, filter.spec().hashAlgorithm());
        }
        assertThrows(IllegalArgumentException.class,
                () -> BloomSpec.builder().parquetType(ParquetType.INT32).cells(256).hashes(7).build());
        assertThrows(IllegalArgumentException.class,
                () -> BloomSpec.builder().parquetType(ParquetType.INT32).cells(256).seed(1).build());
        assertThrows(IllegalArgumentException.class,
                () -> BloomSpec.builder().parquetType(ParquetType.INT32).cells(256).counterBits(4).build());
        assertThrows(IllegalArgumentException.class, () -> GrowingSpec.of(1000, 0.01).withLayout(Layout.SBBF));
    }

    /** Fewest blocks and Parquet-compatible sizes both reach p, measured on absent keys. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void sizingMeetsP(boolean parquetCompatible) throws Exception {
        int n = 50_000;
        double p = 0.01;
        BloomSpec spec = ParquetFilters.spec(ParquetType.INT64, n, p, parquetCompatible);
        long bytes = spec.cells() / 8;
        if (parquetCompatible) {
            assertEquals(1, Long.bitCount(bytes), bytes + " bytes");
            assertTrue(bytes >= ParquetFilters.spec(ParquetType.INT64, n, p, false).cells() / 8);
        } else {
            BloomSpec smaller = spec.toBuilder().cells(spec.cells() - 256).build();
            assertTrue(smaller.expectedFpp(n) > p, "one block fewer would do");
        }
        try (BloomFilter filter = BloomFilter.create(dir.resolve("p.bloom"), spec)) {
            for (long key = 0; key < n; key++) {
                filter.add(key);
            }
            int absent = 400_000;
            int positives = 0;
            for (long key = n; key < n + absent; key++) {
                positives += filter.mightContain(key) ? 1 : 0;
            }
            double rate = positives / (double) absent;
            double model = spec.expectedFpp(n);
            assertTrue(model <= p, "model " + model);
            // five binomial standard deviations and 5% of the model for its independence assumption
            double allowed = model * 1.05 + 5 * Math.sqrt(model / absent);
            assertTrue(rate <= allowed, "measured " + rate + ", model " + model);
            assertTrue(rate >= model * 0.95 - 5 * Math.sqrt(model / absent), "measured " + rate + ", model " + model);
        }
    }

    /**
     * Folding by any factor f is exact: floor(floor(f x) / f) = floor(x), so block b of N goes to
     * block b / f of N / f, where the smaller filter itself puts the key (adjacent blocks merge,
     * not halves).
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 8})
    void foldingIsBuildingTheSmallerFilter(int factor) throws Exception {
        long smallBlocks = 40;
        BloomSpec big = BloomSpec.builder().parquetType(ParquetType.INT64).cells(smallBlocks * factor * 256).build();
        BloomSpec small = big.toBuilder().cells(smallBlocks * 256).build();
        try (BloomFilter a = BloomFilter.create(dir.resolve("big.bloom"), big);
                BloomFilter b = BloomFilter.create(dir.resolve("small.bloom"), small)) {
            for (long key = 0; key < 3000; key++) {
                a.add(key * 31);
                b.add(key * 31);
            }
            long[] bigWords = new long[(int) (big.cells() / 64)];
            a.cells().copyWordsPlain(0, bigWords, bigWords.length);
            long[] smallWords = new long[(int) (small.cells() / 64)];
            b.cells().copyWordsPlain(0, smallWords, smallWords.length);
            assertArrayEquals(smallWords, ParquetFilters.fold(bigWords, smallBlocks));
            assertFalse(java.util.Arrays.equals(smallWords, new long[smallWords.length]));
        }
    }

    /** Merge ORs sbbf filters of different sizes by folding each to their common block count: the filter of all their keys at that size. */
    @Test
    void mergeFoldsFiltersOfDifferentSizes() throws Exception {
        BloomSpec threeFold = BloomSpec.builder().parquetType(ParquetType.INT64).cells(120 * 256).build();
        BloomSpec twoFold = threeFold.toBuilder().cells(80 * 256).build();
        BloomSpec common = threeFold.toBuilder().cells(40 * 256).build();
        try (BloomFilter a = BloomFilter.create(dir.resolve("a.bloom"), threeFold);
                BloomFilter b = BloomFilter.create(dir.resolve("b.bloom"), twoFold);
                BloomFilter all = BloomFilter.create(dir.resolve("all.bloom"), common)) {
            for (long key = 0; key < 2000; key++) {
                (key % 2 == 0 ? a : b).add(key);
                all.add(key);
            }
        }
        FilterFileSummary merged = Merge.toNewFile(dir.resolve("m.bloom"), java.util.List.of(dir.resolve("a.bloom"),
                dir.resolve("b.bloom")), MergeOp.OR);
        assertEquals(common.cells(), merged.info().orElseThrow().spec().cells());
        try (BloomFilter m = BloomFilter.open(dir.resolve("m.bloom"), OpenMode.READ_ONLY);
                BloomFilter all = BloomFilter.open(dir.resolve("all.bloom"), OpenMode.READ_ONLY)) {
            assertTrue(m.isSealed());
            long[] mergedWords = new long[(int) (common.cells() / 64)];
            long[] allWords = new long[mergedWords.length];
            m.cells().copyWordsPlain(0, mergedWords, mergedWords.length);
            all.cells().copyWordsPlain(0, allWords, allWords.length);
            assertArrayEquals(allWords, mergedWords);
        }
        assertThrows(InvalidFilterFileException.class, () -> Merge.toNewFile(dir.resolve("and.bloom"),
                java.util.List.of(dir.resolve("a.bloom"), dir.resolve("b.bloom")), MergeOp.AND));
    }
}

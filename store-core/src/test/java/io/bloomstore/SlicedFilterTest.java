package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.assertNoTemporaryFiles;
import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** A blocked or sectorized filter built slice by slice is the filter one handle builds from the same keys. */
class SlicedFilterTest {
    private static final int KEYS = 20_000;

    @TempDir
    Path dir;

    private static long[] hashesOf(BloomSpec spec, long seed) {
        KeyHasher hasher = new KeyHasher(spec.hashAlgorithm(), spec.seed());
        SplittableRandom random = new SplittableRandom(seed);
        long[] hashes = new long[KEYS];
        for (int i = 0; i < KEYS; i++) {
            hashes[i] = hasher.hash(random.nextLong());
        }
        return hashes;
    }

    /** Each slice's cell bytes, filled from the hashes that fall in it, in the order given. */
    private static List<byte[]> buildSlices(SlicedFilter plan, long[] hashes) throws IOException {
        List<byte[]> written = new ArrayList<>();
        for (int s = 0; s < plan.sliceCount(); s++) {
            long[] mine = new long[hashes.length];
            int count = 0;
            for (long h : hashes) {
                if (plan.sliceOf(h) == s) {
                    mine[count++] = h;
                }
            }
            try (SlicedFilter.Slice slice = plan.newSlice(s)) {
                slice.addHashes(mine, count);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                slice.writeTo(out);
                assertEquals(plan.sliceBytes(s), out.size(), "slice " + s);
                written.add(out.toByteArray());
            }
        }
        return written;
    }

    @ParameterizedTest
    @CsvSource({"BLOCKED, 1, 0.01, 1", "BLOCKED, 1, 0.01, 7", "BLOCKED, 4, 0.01, 16", "BLOCKED, 1, 0.01, 100000",
            "SECTORIZED, 1, 0.01, 1", "SECTORIZED, 1, 0.01, 7", "SECTORIZED, 1, 0.0001, 5", "SECTORIZED, 1, 0.01, 100000"})
    void slicesLaidEndToEndAreTheCellsOfOneFilterGivenAllTheKeys(Layout layout, int counterBits, double fpp, int maxSlices)
            throws IOException {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(fpp).layout(layout).counterBits(counterBits).build();
        long[] hashes = hashesOf(spec, 42);
        Path whole = dir.resolve("whole.bloom");
        try (BloomFilter filter = BloomFilter.create(whole, spec)) {
            filter.addHashes(hashes, hashes.length);
        }
        SlicedFilter plan = SlicedFilter.of(spec, maxSlices);
        assertEquals(Math.min(maxSlices, spec.cells() / spec.cellsPerBlock()), plan.sliceCount());
        List<byte[]> slices = buildSlices(plan, hashes);
        Path sliced = dir.resolve("sliced.bloom");
        plan.assemble(sliced, s -> new ByteArrayInputStream(slices.get(s)));

        try (BloomFilter a = BloomFilter.open(whole, OpenMode.READ_ONLY);
                BloomFilter b = BloomFilter.open(sliced, OpenMode.READ_ONLY)) {
            FilterAssertions.assertSameCells(a, b);
            assertEquals(spec, b.spec());
            assertTrue(b.isSealed(), "assembled files are sealed");
            assertEquals(CellsCheck.INTACT, b.verify());
        }
        assertEquals(Files.size(whole), Files.size(sliced));
        assertNoTemporaryFiles(dir);
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"BLOCKED", "SECTORIZED"})
    void aHashOfAnotherSliceIsRefusedBeforeAnyCellIsSet(Layout layout) throws IOException {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(0.01).layout(layout).build();
        SlicedFilter plan = SlicedFilter.of(spec, 4);
        long[] hashes = hashesOf(spec, 7);
        int at = 0;
        while (plan.sliceOf(hashes[at]) == 0) {
            at++;
        }
        long other = hashes[at];
        try (SlicedFilter.Slice slice = plan.newSlice(0)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> slice.addHashes(new long[] {other}, 1));
            assertTrue(e.getMessage().contains("outside the slice"), e.getMessage());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            slice.writeTo(out);
            for (byte b : out.toByteArray()) {
                assertEquals(0, b);
            }
        }
    }

    @Test
    void aShortSliceFailsTheAssemblyNamingItAndLeavesNoFile() throws IOException {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(0.01).layout(Layout.BLOCKED).build();
        SlicedFilter plan = SlicedFilter.of(spec, 3);
        List<byte[]> slices = buildSlices(plan, hashesOf(spec, 1));
        Path target = dir.resolve("ids.bloom");
        IOException e = assertThrows(IOException.class, () -> plan.assemble(target,
                s -> new ByteArrayInputStream(slices.get(s), 0, s == 1 ? slices.get(s).length - 8 : slices.get(s).length)));
        assertTrue(e.getMessage().contains("slice 1 of 3"), e.getMessage());
        assertFalse(Files.exists(target));
        assertNoTemporaryFiles(dir);
    }

    @Test
    void theStandardLayoutIsNotSliced() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SlicedFilter.of(BloomSpec.forExpected(1000, 0.01), 2));
        assertTrue(e.getMessage().contains("STANDARD") || e.getMessage().contains("standard"), e.getMessage());
    }
}

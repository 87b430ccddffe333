package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.assertNoTemporaryFiles;
import static io.bloomstore.internal.format.FilterFixtures.filterWithKeys;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.files.TemporaryFile;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.tools.FileForensics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** OR and AND, into a new file and in place, for plain and counting filters. */
class MergeTest {
    /** A holds [0, 2000), B holds [1000, 3000): 1000 keys in both. */
    private static final int KEYS = 2_000;

    @TempDir
    Path dir;

    private static BloomSpec spec(int counterBits, Layout layout) {
        return BloomSpec.builder().expectedKeys(3 * KEYS).fpp(0.001).counterBits(counterBits).layout(layout).build();
    }

    /** Filters A and B of one shape, overlapping in half their keys. */
    private record Inputs(BloomSpec spec, Path a, Path b) {
        List<Path> both() {
            return List.of(a, b);
        }
    }

    private Inputs overlappingInputs(int counterBits, Layout layout) throws IOException {
        BloomSpec spec = spec(counterBits, layout);
        return new Inputs(spec, filterWithKeys(dir.resolve("a.bloom"), spec, LongStream.range(0, KEYS)),
                filterWithKeys(dir.resolve("b.bloom"), spec, LongStream.range(KEYS / 2, KEYS / 2 + KEYS)));
    }

    static Stream<Arguments> shapes() {
        List<Arguments> shapes = new ArrayList<>();
        for (Layout layout : Layout.values()) {
            if (layout.isImported()) {
                continue; // GuavaImportTest and SparkSketchImportTest merge those
            }
            for (int w : new int[] {1, 4, 32}) {
                if ((layout == Layout.SECTORIZED || layout == Layout.SBBF) && w != 1) {
                    continue; // 1-bit cells only
                }
                for (MergeOp op : MergeOp.values()) {
                    shapes.add(Arguments.of(op, w, layout));
                }
            }
        }
        return shapes.stream();
    }

    /** Merging into a new file: the result is exactly the word-wise op of the inputs, and holds the keys it should. */
    @ParameterizedTest(name = "{0} w={1} {2}")
    @MethodSource("shapes")
    void mergeIntoNewFile(MergeOp op, int w, Layout layout) throws Exception {
        Inputs inputs = overlappingInputs(w, layout);
        Path out = dir.resolve("out.bloom");
        List<Long> progress = new ArrayList<>();
        Merge.toNewFile(out, inputs.both(), op, progress::add);
        assertFalse(progress.isEmpty());
        assertEquals(inputs.spec().cellBytes(), progress.get(progress.size() - 1), "progress ends at every cell byte");
        try (BloomFilter merged = BloomFilter.open(out, OpenMode.READ_ONLY)) {
            assertEquals(inputs.spec(), merged.spec());
            assertCellsAreTheOpOf(op, merged, inputs.a(), inputs.b());
            assertHoldsTheRightKeys(op, merged);
        }
        assertNoTemporaryFiles(dir);
    }

    /** In place: target := target op source, with the same result as into a new file. */
    @ParameterizedTest(name = "{0} w={1} {2}")
    @MethodSource("shapes")
    void mergeInPlace(MergeOp op, int w, Layout layout) throws Exception {
        Inputs inputs = overlappingInputs(w, layout);
        Path original = Files.copy(inputs.a(), dir.resolve("a-before.bloom"));
        try (BloomFilter target = BloomFilter.open(inputs.a(), OpenMode.READ_WRITE);
                BloomFilter source = BloomFilter.open(inputs.b(), OpenMode.READ_ONLY)) {
            Merge.inPlace(target, source, op, null);
            assertCellsAreTheOpOf(op, target, original, inputs.b());
            assertHoldsTheRightKeys(op, target);
        }
    }

    /** Merge works in steps of 32,768 words; a filter of two and a bit steps checks their seams and the short last one. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(MergeOp.class)
    void filtersOfSeveralMergeStepsMergeWordForWord(MergeOp op) throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(64L * (2 * 32_768 + 1_001)).hashes(3).build();
        Path a = filterWithKeys(dir.resolve("a.bloom"), spec, LongStream.range(0, 200_000));
        Path b = filterWithKeys(dir.resolve("b.bloom"), spec, LongStream.range(100_000, 300_000));
        Path out = dir.resolve("out.bloom");
        Merge.toNewFile(out, List.of(a, b), op);
        Path target = Files.copy(a, dir.resolve("in-place.bloom"));
        try (BloomFilter merged = BloomFilter.open(out, OpenMode.READ_ONLY);
                BloomFilter inPlace = BloomFilter.open(target, OpenMode.READ_WRITE);
                BloomFilter source = BloomFilter.open(b, OpenMode.READ_ONLY)) {
            assertCellsAreTheOpOf(op, merged, a, b);
            Merge.inPlace(inPlace, source, op, null);
            assertCellsAreTheOpOf(op, inPlace, a, b);
        }
    }

    /** Every word of {@code merged} is {@code op} of the same word of the two input files. */
    private static void assertCellsAreTheOpOf(MergeOp op, BloomFilter merged, Path first, Path second) throws IOException {
        try (BloomFilter x = BloomFilter.open(first, OpenMode.READ_ONLY);
                BloomFilter y = BloomFilter.open(second, OpenMode.READ_ONLY)) {
            CellArray result = merged.cells();
            int w = merged.spec().counterBits();
            for (long word = 0; word < result.words(); word++) {
                assertEquals(op.combine(x.cells().getWordVolatile(word), y.cells().getWordVolatile(word), w),
                        result.getWordVolatile(word), "word " + word);
            }
        }
    }

    /** OR holds every key of A and B; AND holds every key of both (and, with counters, at their minimum count). */
    private static void assertHoldsTheRightKeys(MergeOp op, BloomFilter merged) {
        long from = op == MergeOp.OR ? 0 : KEYS / 2;
        long to = op == MergeOp.OR ? KEYS / 2 + KEYS : KEYS;
        for (long key = from; key < to; key++) {
            assertTrue(merged.mightContain(key), op + " lost key " + key);
        }
        if (op == MergeOp.AND) {
            int onlyOneSide = 0;
            for (long key = 0; key < KEYS / 2; key++) {
                onlyOneSide += merged.mightContain(key) ? 1 : 0;
            }
            assertTrue(onlyOneSide < KEYS / 20, "AND mostly drops keys of one side only: " + onlyOneSide + " remain");
        }
    }

    /** Counters: OR is the saturating sum, AND the minimum. */
    @Test
    void countersAreSummedWithSaturationOrTakenAtTheirMinimum() throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(1 << 16).hashes(4).counterBits(4).build();
        Path a = filterWithKeys(dir.resolve("a.bloom"), spec, LongStream.generate(() -> 7L).limit(10));
        Path b = filterWithKeys(dir.resolve("b.bloom"), spec, LongStream.concat(
                LongStream.generate(() -> 7L).limit(3), LongStream.generate(() -> 8L).limit(2)));
        Merge.toNewFile(dir.resolve("or.bloom"), List.of(a, b), MergeOp.OR);
        Merge.toNewFile(dir.resolve("and.bloom"), List.of(a, b), MergeOp.AND);
        try (BloomFilter or = BloomFilter.open(dir.resolve("or.bloom"), OpenMode.READ_ONLY);
                BloomFilter and = BloomFilter.open(dir.resolve("and.bloom"), OpenMode.READ_ONLY)) {
            assertEquals(13, or.count(7L));
            assertEquals(2, or.count(8L));
            assertEquals(3, and.count(7L));
            assertEquals(0, and.count(8L));
        }
        // 13 + 13 = 26 does not fit 4 bits: it saturates at 15 instead of wrapping to 10.
        Merge.toNewFile(dir.resolve("or2.bloom"), List.of(dir.resolve("or.bloom"), dir.resolve("or.bloom")), MergeOp.OR);
        try (BloomFilter doubled = BloomFilter.open(dir.resolve("or2.bloom"), OpenMode.READ_ONLY)) {
            assertEquals(15, doubled.count(7L));
        }
    }

    @Test
    void threeInputsCombineAtOnce() throws Exception {
        BloomSpec spec = spec(1, Layout.STANDARD);
        Path a = filterWithKeys(dir.resolve("a.bloom"), spec, LongStream.range(0, 100));
        Path b = filterWithKeys(dir.resolve("b.bloom"), spec, LongStream.range(100, 200));
        Path c = filterWithKeys(dir.resolve("c.bloom"), spec, LongStream.range(200, 300));
        Merge.toNewFile(dir.resolve("all.bloom"), List.of(a, b, c), MergeOp.OR);
        try (BloomFilter all = BloomFilter.open(dir.resolve("all.bloom"), OpenMode.READ_ONLY)) {
            for (long key = 0; key < 300; key++) {
                assertTrue(all.mightContain(key), "key " + key);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.bloomstore.internal.format.FilterFixtures#shapesDifferingInOneField")
    void incompatibleInputsAreRefusedNamingTheFieldAndNothingIsWritten(String field, BloomSpec first, BloomSpec second)
            throws Exception {
        Path a = filterWithKeys(dir.resolve("a.bloom"), first, LongStream.range(0, 10));
        Path b = filterWithKeys(dir.resolve("b.bloom"), second, LongStream.range(0, 10));
        Path out = dir.resolve("out.bloom");
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> Merge.toNewFile(out, List.of(a, b), MergeOp.OR));
        assertEquals(Problem.INCOMPATIBLE, e.problem());
        assertTrue(e.getMessage().contains(field) && e.getMessage().contains("b.bloom"), e.getMessage());
        assertFalse(Files.exists(out));
        assertNoTemporaryFiles(dir);

        byte[] before = Files.readAllBytes(a);
        try (BloomFilter target = BloomFilter.open(a, OpenMode.READ_WRITE);
                BloomFilter source = BloomFilter.open(b, OpenMode.READ_ONLY)) {
            InvalidFilterFileException inPlace = assertThrows(InvalidFilterFileException.class,
                    () -> Merge.inPlace(target, source, MergeOp.AND, null));
            assertTrue(inPlace.getMessage().contains(field), inPlace.getMessage());
        }
        assertArrayEquals(before, Files.readAllBytes(a), "the target is unchanged");
    }

    /** n and p record how a filter was sized, not where its keys are: filters differing only there merge. */
    @Test
    void filtersDifferingOnlyInNAndPMerge() throws Exception {
        BloomSpec base = BloomSpec.builder().cells(8192).hashes(5).build();
        Path a = filterWithKeys(dir.resolve("a.bloom"), base.toBuilder().expectedKeys(10).fpp(0.1).build(), LongStream.of(1));
        Path b = filterWithKeys(dir.resolve("b.bloom"), base, LongStream.of(2));
        Merge.toNewFile(dir.resolve("out.bloom"), List.of(a, b), MergeOp.OR);
        try (BloomFilter out = BloomFilter.open(dir.resolve("out.bloom"), OpenMode.READ_ONLY)) {
            assertTrue(out.mightContain(1L) && out.mightContain(2L));
            assertEquals(10, out.spec().expectedKeys(), "the first input's n and p");
        }
    }

    /**
     * A reader that opens the output the instant it appears finds it complete and sealed: it is
     * sealed in its temporary, before the rename publishes it. A watcher polls for the path while
     * the merge runs and checks the first file it sees.
     */
    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 8})
    void mergedFileIsSealedTheInstantItExists(int w) throws Exception {
        Inputs inputs = overlappingInputs(w, Layout.BLOCKED);
        Path out = dir.resolve("out.bloom");
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Boolean> sealedWhenSeen = CompletableFuture.supplyAsync(() -> {
            while (!Files.exists(out)) {
                if (done.get() && !Files.exists(out)) {
                    throw new AssertionError("the merge ended without an output");
                }
                Thread.onSpinWait();
            }
            try (BloomFilter seen = BloomFilter.open(out, OpenMode.READ_ONLY)) {
                boolean sealed = seen.isSealed();
                if (sealed) {
                    assertEquals(CellsCheck.INTACT, seen.verify());
                }
                return sealed;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            Merge.toNewFile(out, inputs.both(), MergeOp.OR);
        } finally {
            done.set(true);
        }
        assertTrue(sealedWhenSeen.get(10, TimeUnit.SECONDS), "sealed when first seen");
        try (BloomFilter merged = BloomFilter.open(out, OpenMode.READ_ONLY)) {
            assertTrue(merged.isSealed());
            assertEquals(CellsCheck.INTACT, merged.verify());
            assertEquals(0, merged.openWriters());
        }
    }

    /** What the merge writes into its temporary, before any publishing, is already sealed. */
    @Test
    void theContentWrittenBeforePublishingIsSealed() throws Exception {
        Inputs inputs = overlappingInputs(4, Layout.STANDARD);
        try (BloomFilter a = BloomFilter.open(inputs.a(), OpenMode.READ_ONLY);
                BloomFilter b = BloomFilter.open(inputs.b(), OpenMode.READ_ONLY);
                TemporaryFile temporary = TemporaryFile.beside(dir.resolve("out.bloom"), "test")) {
            FilterHeader header = FilterHeader.newFile(inputs.spec(), System.currentTimeMillis(), false);
            FilterFiles.writeFully(temporary.channel(), header.newFilePage());
            Merge.sealedContent(header, List.of(a, b), MergeOp.AND, null).writeTo(temporary.channel(), temporary);
            try (BloomFilter written = BloomFilter.open(temporary.path(), OpenMode.READ_ONLY)) {
                assertTrue(written.isSealed());
                assertEquals(CellsCheck.INTACT, written.verify());
                assertCellsAreTheOpOf(MergeOp.AND, written, inputs.a(), inputs.b());
            }
        }
    }

    @Test
    void existingOutputIsKeptUnlessReplacing() throws Exception {
        Inputs inputs = overlappingInputs(1, Layout.STANDARD);
        Path out = Files.write(dir.resolve("out.bloom"), new byte[] {1, 2, 3});
        assertThrows(FileAlreadyExistsException.class, () -> Merge.toNewFile(out, inputs.both(), MergeOp.OR));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(out));
        // every cell is written, so a sparse result is refused rather than silently written whole
        IllegalArgumentException sparse = assertThrows(IllegalArgumentException.class,
                () -> Merge.toNewFile(out, inputs.both(), MergeOp.OR, CreateOption.SPARSE, CreateOption.REPLACE_EXISTING));
        assertTrue(sparse.getMessage().contains("SPARSE"), sparse.getMessage());
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(out));
        Merge.toNewFile(out, inputs.both(), MergeOp.OR, CreateOption.REPLACE_EXISTING);
        assertEquals(inputs.spec(), FileForensics.readInfo(out).spec());
        assertNoTemporaryFiles(dir);
    }

    @Test
    void fewerThanTwoInputsAndReadOnlyTargetsAreRefused() throws Exception {
        Path a = overlappingInputs(1, Layout.STANDARD).a();
        assertThrows(IllegalArgumentException.class,
                () -> Merge.toNewFile(dir.resolve("out.bloom"), List.of(a), MergeOp.OR));
        try (BloomFilter target = BloomFilter.open(a, OpenMode.READ_ONLY);
                BloomFilter source = BloomFilter.open(a, OpenMode.READ_ONLY)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> Merge.inPlace(target, source, MergeOp.OR, null));
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        }
        assertFalse(Files.exists(dir.resolve("out.bloom")));
    }
}

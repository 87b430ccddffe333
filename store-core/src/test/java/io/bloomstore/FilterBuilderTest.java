package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.assertNoTemporaryFiles;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.tools.FileForensics;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Building a sealed filter from keys: sized by the count, published whole, nothing left behind. */
class FilterBuilderTest {
    private static final int KEYS = 20_000;

    @TempDir
    Path dir;

    private final List<String> phases = new ArrayList<>();

    private static byte[] lines(int count) {
        return IntStream.range(0, count).mapToObj(i -> "key-" + i + "\n").collect(Collectors.joining())
                .getBytes(StandardCharsets.US_ASCII);
    }

    private FilterBuilder builder(Path target) {
        return FilterBuilder.to(target).progress((phase, totalBytes) -> {
            phases.add(phase + " " + totalBytes);
            return bytes -> {
            };
        });
    }

    private static void assertHoldsKeys(Path file, int count) throws IOException {
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertTrue(filter.isSealed(), "published sealed");
            assertEquals(CellsCheck.INTACT, filter.verify());
            for (int i = 0; i < count; i++) {
                assertTrue(filter.mightContain("key-" + i));
            }
        }
    }

    @Test
    void aFileIsCountedThenBuiltIntoAFilterSizedForItsKeys() throws IOException {
        Path keys = dir.resolve("keys.txt");
        Files.write(keys, lines(KEYS));
        Path target = dir.resolve("f.bloom");
        FilterBuilder.Built built = builder(target).sizedFor(n -> BloomSpec.forExpected(n, 0.001)).fromLines(keys);
        assertEquals(BloomSpec.forExpected(KEYS, 0.001), built.spec());
        assertEquals(KEYS, built.keys());
        assertEquals(built.spec(), FileForensics.readInfo(target).spec());
        assertEquals(List.of("COUNT " + Files.size(keys), "BUILD " + Files.size(keys)), phases);
        assertHoldsKeys(target, KEYS);
        assertNoTemporaryFiles(dir);
    }

    @Test
    void aStreamToBeCountedIsSpooledBesideTheTargetAndTheSpoolDeleted() throws IOException {
        Path target = dir.resolve("f.bloom");
        byte[] input = lines(KEYS);
        FilterBuilder.Built built = builder(target).sizedFor(n -> BloomSpec.forExpected(n, 0.01))
                .fromLines(new ByteArrayInputStream(input));
        assertEquals(KEYS, built.spec().expectedKeys());
        assertEquals(List.of("SPOOL -1", "COUNT " + input.length, "BUILD " + input.length), phases);
        assertHoldsKeys(target, KEYS);
        assertNoTemporaryFiles(dir);
    }

    @Test
    void aStreamWithAGivenSpecIsReadOnce() throws IOException {
        Path target = dir.resolve("f.bloom");
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(0.01).layout(Layout.BLOCKED).build();
        FilterBuilder.Built built = builder(target).spec(spec).options(CreateOption.SPARSE).threads(1)
                .fromLines(new ByteArrayInputStream(lines(KEYS)));
        assertEquals(new FilterBuilder.Built(spec, null, KEYS, built.newKeys()), built);
        assertTrue(FileForensics.readInfo(target).sparse());
        assertEquals(List.of("BUILD -1"), phases);
        assertHoldsKeys(target, KEYS);
    }

    @Test
    void anExistingTargetIsKeptBeforeAnyInputIsReadUnlessReplaced() throws IOException {
        Path target = dir.resolve("f.bloom");
        Files.writeString(target, "not a filter");
        ByteArrayInputStream input = new ByteArrayInputStream(lines(10));
        assertThrows(FileAlreadyExistsException.class,
                () -> builder(target).spec(BloomSpec.forExpected(10, 0.01)).fromLines(input));
        assertEquals(lines(10).length, input.available(), "nothing read");
        assertArrayEquals("not a filter".getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(target));

        builder(target).spec(BloomSpec.forExpected(10, 0.01)).options(CreateOption.REPLACE_EXISTING).fromLines(input);
        assertHoldsKeys(target, 10);
        assertNoTemporaryFiles(dir);
    }

    @Test
    void aFailedBuildLeavesNothing() {
        Path target = dir.resolve("f.bloom");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder(target)
                .sizedFor(n -> BloomSpec.forExpected(n, 2.0)).fromLines(new ByteArrayInputStream(lines(100))));
        assertTrue(e.getMessage().contains("false-positive rate"), e.getMessage());
        assertFalse(Files.exists(target));
        assertNoTemporaryFiles(dir);
        assertThrows(IllegalStateException.class, () -> FilterBuilder.to(target).fromLines(dir.resolve("none")));
    }

    /** A growing build reads a stream once (no spool, no count), grows as the keys come, and is published whole. */
    @Test
    void aGrowingBuildReadsAStreamOnceAndGrows() throws IOException {
        Path target = dir.resolve("g.bloom");
        FilterBuilder.Built built = builder(target).growing(GrowingSpec.of(1000, 0.01))
                .fromLines(new ByteArrayInputStream(lines(KEYS)));
        assertEquals(List.of("BUILD -1"), phases);
        assertEquals(KEYS, built.keys());
        assertEquals(GrowingSpec.of(1000, 0.01), built.growingSpec());
        assertEquals(null, built.spec());
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(target, OpenMode.READ_ONLY)) {
            assertTrue(filter.segmentCount() >= 4, "grew: " + filter.segmentCount() + " segments");
            for (int i = 0; i < KEYS; i++) {
                assertTrue(filter.mightContain("key-" + i));
            }
        }
        assertNoTemporaryFiles(dir);
        assertThrows(IllegalStateException.class, () -> builder(dir.resolve("s.bloom")).growing(GrowingSpec.of(10, 0.01))
                .options(CreateOption.SPARSE).fromLines(new ByteArrayInputStream(lines(1))));
    }

    /** A stable build from lines publishes a sealed stable file whose recent keys are present. */
    @Test
    void aStableBuildPublishesASealedStableFile() throws IOException {
        Path target = dir.resolve("stable.bloom");
        StableSpec spec = StableSpec.forLifetime(KEYS, 0.01, 2);
        FilterBuilder.Built built = builder(target).stable(spec).fromLines(new ByteArrayInputStream(lines(1000)));
        assertEquals(1000, built.keys());
        try (BloomFilter filter = BloomFilter.open(target, OpenMode.READ_ONLY)) {
            StableSpec read = filter.stableSpec().orElseThrow(); // the file carries the stable rule
            assertEquals(spec.spec(), read.spec());
            assertEquals(spec.decrements(), read.decrements());
            assertTrue(filter.isSealed(), "published sealed");
            assertEquals(CellsCheck.INTACT, filter.verify());
            // a stable filter forgets its older keys at the model's false-negative rate; the last ten are held
            for (int i = 990; i < 1000; i++) {
                assertTrue(filter.mightContain("key-" + i), "key-" + i);
            }
        }
        assertNoTemporaryFiles(dir);
    }

    /**
     * A valued build is filled by its caller and published sealed with its values; a fill that
     * fails leaves neither the target nor a temporary.
     */
    @Test
    void aValuedBuildIsFilledByItsCallerAndAFailedFillLeavesNothing() throws IOException {
        Path target = dir.resolve("valued.bloom");
        long changed = FilterBuilder.to(target).valued(1000, 0.01, 4, ValuedFilter.Keep.MAX).filledBy(filter -> {
            ValuedFilter valued = ValuedFilter.of(filter).orElseThrow();
            long cells = 0;
            for (int i = 0; i < 1000; i++) {
                cells += valued.put("key-" + i, i % 16) ? 1 : 0;
            }
            return cells;
        });
        assertTrue(changed > 0);
        try (ValuedFilter valued = ValuedFilter.open(target, OpenMode.READ_ONLY)) {
            assertTrue(valued.filter().isSealed(), "published sealed");
            assertEquals(CellsCheck.INTACT, valued.filter().verify());
            for (int i = 0; i < 1000; i++) {
                long read = valued.get("key-" + i).orElseThrow();
                assertTrue(read >= i % 16, "max rule: key-" + i + " reads " + read);
            }
        }
        assertNoTemporaryFiles(dir);

        Path failed = dir.resolve("failed.bloom");
        IOException e = assertThrows(IOException.class, () -> FilterBuilder.to(failed).valued(1000, 0.01, 4, ValuedFilter.Keep.MAX)
                .filledBy(filter -> {
                    throw new IOException("input broke");
                }));
        assertEquals("input broke", e.getMessage());
        assertFalse(Files.exists(failed));
        assertNoTemporaryFiles(dir);
        assertThrows(FileAlreadyExistsException.class, () -> FilterBuilder.to(target).valued(1000, 0.01, 4, ValuedFilter.Keep.MAX)
                .filledBy(filter -> 0L));
        assertThrows(IllegalStateException.class, () -> FilterBuilder.to(failed).sizedFor(n -> BloomSpec.forExpected(n, 0.01))
                .filledBy(filter -> 0L));
    }
}

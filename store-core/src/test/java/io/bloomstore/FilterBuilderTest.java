package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.assertNoTemporaryFiles;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
            filter.verifyCells();
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
        assertEquals(built.spec(), BloomFilter.readInfo(target).spec());
        assertEquals(List.of("count " + Files.size(keys), "build " + Files.size(keys)), phases);
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
        assertEquals(List.of("spool -1", "count " + input.length, "build " + input.length), phases);
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
        assertTrue(BloomFilter.readInfo(target).sparse());
        assertEquals(List.of("build -1"), phases);
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
        assertEquals(List.of("build -1"), phases);
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
}

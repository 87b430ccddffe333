package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.assertNoTemporaryFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.tools.FileForensics;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A fixed filter built in anonymous memory: its file is written once, when sealed, not page by page
 * while the keys are added, and ends byte for byte as a build in the mapped file leaves it.
 */
class InMemoryBuildTest {
    private static final int KEYS = 30_000;

    @TempDir
    Path dir;

    private Path keyFile() throws IOException {
        SplittableRandom random = new SplittableRandom(19);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < KEYS; i++) {
            lines.append(Long.toHexString(random.nextLong())).append('\n');
        }
        Path keys = dir.resolve("keys.txt");
        Files.writeString(keys, lines, StandardCharsets.US_ASCII);
        return keys;
    }

    /** The length of the build's temporary each time the build phase reports progress. */
    private List<Long> temporaryLengthsDuringBuild(FilterBuilder builder, Path keys) throws IOException {
        List<Long> lengths = new ArrayList<>();
        builder.progress((phase, totalBytes) -> bytes -> {
            if (phase == FilterBuilder.Stage.BUILD) {
                lengths.add(buildingTemporaryLength());
            }
        }).fromLines(keys);
        return lengths;
    }

    private long buildingTemporaryLength() {
        try (Stream<Path> files = Files.list(dir)) {
            Path temporary = files.filter(f -> f.getFileName().toString().endsWith(".building.tmp")).findFirst()
                    .orElseThrow(() -> new AssertionError("no building temporary in " + dir));
            return Files.size(temporary);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aDefaultBuildWritesNothingToItsFileUntilSealed() throws IOException {
        assumeTrue(Files.isReadable(Path.of("/proc/meminfo")), "the default reads Linux's MemAvailable");
        Path keys = keyFile();
        Path target = dir.resolve("f.bloom");
        BloomSpec spec = BloomSpec.forExpected(KEYS, 0.01);

        List<Long> lengths = temporaryLengthsDuringBuild(FilterBuilder.to(target).spec(spec), keys);

        assertFalse(lengths.isEmpty(), "the build reported progress");
        assertEquals(List.of(0L), lengths.stream().distinct().toList(), "the temporary stays empty while keys are added");
        assertEquals(FilterFileDescriptor.CELLS_START + spec.cellBytes(), Files.size(target));
        try (BloomFilter filter = BloomFilter.open(target, OpenMode.READ_ONLY)) {
            assertEquals(CellsCheck.INTACT, filter.verify());
        }
        assertNoTemporaryFiles(dir);
    }

    /** The contrast that makes the test above mean something: a mapped build's file is all there from the start. */
    @Test
    void aBuildInTheMappedFileWritesItWhileKeysAreAdded() throws IOException {
        Path keys = keyFile();
        BloomSpec spec = BloomSpec.forExpected(KEYS, 0.01);

        List<Long> lengths = temporaryLengthsDuringBuild(
                FilterBuilder.to(dir.resolve("f.bloom")).spec(spec).inMemory(false), keys);

        assertEquals(List.of(FilterFileDescriptor.CELLS_START + spec.cellBytes()), lengths.stream().distinct().toList());
    }

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of(Layout.STANDARD, 1, false, 1),
                Arguments.of(Layout.BLOCKED, 1, false, 1),
                Arguments.of(Layout.STANDARD, 4, false, 1),
                Arguments.of(Layout.STANDARD, 1, true, 1),
                Arguments.of(Layout.BLOCKED, 8, true, 1),
                Arguments.of(Layout.STANDARD, 1, false, 2),
                Arguments.of(Layout.BLOCKED, 4, false, 2));
    }

    /**
     * One adder in memory adds with plain stores, two with compare-and-sets; the mapped build adds on
     * one thread, whose count of new keys (in the state area) is the sequential one. With two
     * adders that count may differ by the few keys whose answer depends on their order, so it is
     * compared for one adder only.
     */
    @ParameterizedTest(name = "{0}, {1}-bit cells, sparse {2}, {3} adder(s) in memory")
    @MethodSource("shapes")
    void inMemoryAndMappedBuildsMakeTheSameFile(Layout layout, int counterBits, boolean sparse, int adders)
            throws IOException {
        Path keys = keyFile();
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(0.01).layout(layout).counterBits(counterBits).build();
        Path inMemory = dir.resolve("in-memory.bloom");
        Path mapped = dir.resolve("mapped.bloom");
        CreateOption[] options = sparse ? new CreateOption[] {CreateOption.SPARSE} : new CreateOption[0];
        FilterBuilder.Built a = FilterBuilder.to(inMemory).spec(spec).options(options).threads(adders).inMemory(true)
                .fromLines(keys);
        FilterBuilder.Built b = FilterBuilder.to(mapped).spec(spec).options(options).threads(1).inMemory(false).fromLines(keys);

        assertEquals(b.keys(), a.keys());
        if (adders == 1) {
            assertEquals(b, a);
        }
        FilterFileInfo infoA = FileForensics.readInfo(inMemory);
        FilterFileInfo infoB = FileForensics.readInfo(mapped);
        assertEquals(infoB.spec(), infoA.spec());
        assertEquals(sparse, infoA.sparse());
        byte[] bytesA = Files.readAllBytes(inMemory);
        byte[] bytesB = Files.readAllBytes(mapped);
        assertEquals(bytesB.length, bytesA.length);
        // The cells are the same bytes; header and state differ by the creation time and the file
        // identity (every new file has its own, and the seal's checksum is keyed by it).
        int cells = FilterFileDescriptor.CELLS_START;
        assertTrue(Arrays.equals(bytesA, cells, bytesA.length, bytesB, cells, bytesB.length),
                "the cells of the in-memory and the mapped build differ");
        try (BloomFilter filterA = BloomFilter.open(inMemory, OpenMode.READ_ONLY);
                BloomFilter filterB = BloomFilter.open(mapped, OpenMode.READ_ONLY)) {
            assertTrue(filterA.isSealed());
            assertTrue((filterA.verify() == CellsCheck.INTACT), "checked against its seal, identity and padding");
            assertEquals(0, filterA.openWriters());
            if (adders == 1) {
                assertEquals(filterB.approximateKeys(), filterA.approximateKeys());
            }
        }
        assertNoTemporaryFiles(dir);
    }

    @Test
    void anInMemoryBuildWhoseInputFailsLeavesNothing() {
        Path target = dir.resolve("f.bloom");
        byte[] someLines = "a\nb\nc\n".getBytes(StandardCharsets.US_ASCII);
        InputStream failing = new SequenceInputStream(new ByteArrayInputStream(someLines), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("the disk holding the keys failed");
            }
        });
        IOException e = assertThrows(IOException.class, () -> FilterBuilder.to(target).spec(BloomSpec.forExpected(10, 0.01))
                .inMemory(true).fromLines(failing));
        assertEquals("the disk holding the keys failed", e.getMessage());
        assertFalse(Files.exists(target));
        assertNoTemporaryFiles(dir);
    }

    /**
     * The adder threads a build starts when not told: one (with plain stores) for a filter of at
     * most 16 MiB of cells built in memory, else one per processor up to four; as told otherwise.
     * Counted from the key stream, which the build reads once its adders run.
     */
    @Test
    void aBuildInMemoryOfAFilterInTheCachesHasOneAdder() throws IOException {
        BloomSpec small = BloomSpec.forExpected(10_000, 0.01);
        BloomSpec large = BloomSpec.builder().cells(17L << 23).hashes(7).build(); // 17 MiB of 1-bit cells
        assertEquals(1, addersWhileReading(FilterBuilder.to(dir.resolve("s.bloom")).spec(small).inMemory(true)));
        assertEquals(Math.min(4, Runtime.getRuntime().availableProcessors()),
                addersWhileReading(FilterBuilder.to(dir.resolve("l.bloom")).spec(large).inMemory(true)));
        assertEquals(Math.min(4, Runtime.getRuntime().availableProcessors()),
                addersWhileReading(FilterBuilder.to(dir.resolve("m.bloom")).spec(small).inMemory(false)));
        assertEquals(2, addersWhileReading(FilterBuilder.to(dir.resolve("t.bloom")).spec(small).inMemory(true).threads(2)));
    }

    private static int addersWhileReading(FilterBuilder builder) throws IOException {
        int[] adders = {-1};
        InputStream keys = new SequenceInputStream(new ByteArrayInputStream("a\nb\n".getBytes(StandardCharsets.US_ASCII)),
                new InputStream() {
                    @Override
                    public int read() {
                        adders[0] = (int) Thread.getAllStackTraces().keySet().stream()
                                .filter(t -> t.getName().startsWith("bloomstore-adder-") && t.isAlive()).count();
                        return -1;
                    }
                });
        builder.fromLines(keys);
        return adders[0];
    }
}

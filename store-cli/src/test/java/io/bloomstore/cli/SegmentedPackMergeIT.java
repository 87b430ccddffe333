package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.OpenMode;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pack | unpack and merge of growing and windowed files through the real jar. The files are made
 * through the library: this is about the verbs that carry them, whichever verb makes them.
 */
class SegmentedPackMergeIT {
    @TempDir
    Path dir;

    private Path growing(String name, long from, long to) throws Exception {
        Path file = dir.resolve(name);
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, GrowingSpec.of(1000, 0.01))) {
            for (long key = from; key < to; key++) {
                filter.add("k" + key);
            }
        }
        return file;
    }

    @Test
    void aGrowingFilePacksAndUnpacksBitForBitThroughFilesAndAPipe() throws Exception {
        Path file = growing("g.bloom", 0, 20_000);
        run(dir, "pack", "g.bloom", "g.pack").assertOk();
        String unpacked = run(dir, "unpack", "g.pack", "copy.bloom").assertOk().stdout();
        assertEquals("unpacked g.pack into copy.bloom: growing filter, 5 segments, 88.0 KiB\n", unpacked);
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(dir.resolve("copy.bloom")));

        JarProcess.Result packed = run(dir, "pack", "g.bloom", "-");
        assertEquals(0, packed.exit(), packed.err());
        run(dir, packed.out(), "unpack", "-", "piped.bloom").assertOk();
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(dir.resolve("piped.bloom")));
        try (GrowingBloomFilter copy = GrowingBloomFilter.open(dir.resolve("piped.bloom"), OpenMode.READ_ONLY)) {
            assertEquals(5, copy.segmentCount());
            assertTrue(copy.mightContain("k0") && copy.mightContain("k19999"));
        }
    }

    @Test
    void aWindowedFilePacksAndUnpacksBitForBit() throws Exception {
        Path file = dir.resolve("w.bloom");
        WindowSpec spec = WindowSpec.of(10_000, 0.01, Duration.ofHours(1));
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec, Clock.systemUTC())) {
            filter.add("alpha");
        }
        JarProcess.Result packed = run(dir, "pack", "w.bloom", "-");
        assertEquals(0, packed.exit(), packed.err());
        String unpacked = run(dir, packed.out(), "unpack", "-", "copy.bloom").assertOk().stdout();
        assertTrue(unpacked.startsWith("unpacked stdin into copy.bloom: windowed filter, 9 slots, "), unpacked);
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(dir.resolve("copy.bloom")));
    }

    @Test
    void twoGrowingFilesMergeIntoOneHoldingEveryKey() throws Exception {
        growing("a.bloom", 0, 20_000);
        growing("b.bloom", 100_000, 105_000);
        String merged = run(dir, "merge", "out.bloom", "a.bloom", "b.bloom").assertOk().stdout();
        assertEquals("merged 2 growing filters (or) into out.bloom (88.0 KiB)\n", merged);
        try (GrowingBloomFilter out = GrowingBloomFilter.open(dir.resolve("out.bloom"), OpenMode.READ_ONLY)) {
            assertEquals(5, out.segmentCount());
            for (long key = 0; key < 20_000; key++) {
                assertTrue(out.mightContain("k" + key), "k" + key);
            }
            for (long key = 100_000; key < 105_000; key++) {
                assertTrue(out.mightContain("k" + key), "k" + key);
            }
        }

        String and = run(dir, "merge", "and.bloom", "a.bloom", "b.bloom", "--op", "and").assertError(2).err();
        assertTrue(and.startsWith("bloomstore: a.bloom: AND is not defined for growing filters"), and);
        assertEquals(1, and.lines().count(), and);
        BloomFilter.create(dir.resolve("fixed.bloom"), BloomSpec.forExpected(1000, 0.01)).close();
        String mixed = run(dir, "merge", "mixed.bloom", "a.bloom", "fixed.bloom").assertError(2).err();
        assertTrue(mixed.contains("they differ in kind: growing vs fixed"), mixed);
        assertEquals(List.of("a.bloom", "b.bloom", "fixed.bloom", "out.bloom"), filesIn(dir));
    }
}

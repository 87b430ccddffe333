package io.bloomstore.tour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import io.bloomstore.FilterStats;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.Pack;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java API tour of README.md, step for step: if this stops compiling or passing, the README is
 * wrong. Keep the two in sync.
 */
class ApiTourTest {
    @TempDir
    Path dir;

    @Test
    void tour() throws Exception {
        Path seenFile = dir.resolve("seen.bloom");
        Path partA = dir.resolve("part-a.bloom");
        Path partB = dir.resolve("part-b.bloom");
        Path all = dir.resolve("all.bloom");
        Path packed = dir.resolve("all.bloom.lz4");
        Path restored = dir.resolve("restored.bloom");

        // 1. A dedup index that survives restarts: open it if it exists, else create it.
        BloomSpec spec = BloomSpec.forExpected(10_000_000, 0.001);
        try (BloomFilter seen = BloomFilter.openOrCreate(seenFile, spec)) {
            assertTrue(seen.add("order-42"));       // true: definitely new, process it
            assertFalse(seen.add("order-42"));      // false: seen before (or a 0.1% false positive)
            assertFalse(seen.mightContain("order-7"));
            seen.sync();                            // durable against power loss from here on
        }
        try (BloomFilter seen = BloomFilter.openOrCreate(seenFile, spec)) { // after a restart
            assertTrue(seen.mightContain("order-42"));
        }

        // 2. Cache-line blocked layout (one memory access per key) and counting cells.
        BloomSpec blocked = BloomSpec.builder().expectedKeys(1_000_000).fpp(0.01)
                .layout(Layout.BLOCKED).counterBits(4).build();
        try (BloomFilter counts = BloomFilter.create(dir.resolve("counts.bloom"), blocked)) {
            counts.add(123L);
            counts.add(123L);
            assertEquals(2, counts.count(123L));
            assertTrue(counts.remove(123L));
            assertEquals(1, counts.count(123L));
        }

        // 3. Build in parts (same parameters, same default seed), then OR-merge.
        try (BloomFilter a = BloomFilter.create(partA, spec); BloomFilter b = BloomFilter.create(partB, spec)) {
            a.addAll(new long[] {1, 2, 3});
            b.addAll(new long[] {4, 5, 6});
        }
        Merge.toNewFile(all, List.of(partA, partB), MergeOp.OR, false, null);
        try (BloomFilter union = BloomFilter.open(all, OpenMode.READ_ONLY)) {
            assertTrue(union.mightContain(1L) && union.mightContain(6L));
            FilterStats stats = union.stats();
            assertEquals(6, stats.estimatedKeys(), 0.5);
        }

        // 4. Ship it: pack to an LZ4 stream, unpack bit for bit.
        try (OutputStream out = Files.newOutputStream(packed)) {
            Pack.pack(all, out, null);
        }
        try (InputStream in = Files.newInputStream(packed)) {
            Pack.unpack(in, packed.toString(), restored, false, null);
        }
        assertEquals(-1, Files.mismatch(all, restored));
    }
}

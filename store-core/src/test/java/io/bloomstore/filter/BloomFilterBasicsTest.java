package io.bloomstore.filter;

import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.spec.BloomSpec;
import io.bloomstore.spec.Layout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BloomFilterBasicsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"1,STANDARD", "2,STANDARD", "4,STANDARD", "8,STANDARD", "16,STANDARD", "32,STANDARD",
            "1,BLOCKED", "2,BLOCKED", "4,BLOCKED", "8,BLOCKED", "16,BLOCKED", "32,BLOCKED"})
    void everyAddedKeyIsFoundAfterReopen(int bits, Layout layout) throws Exception {
        BloomSpec spec = BloomSpec.builder().expectedKeys(20_000).fpp(0.01).counterBits(bits).layout(layout).build();
        Path file = dir.resolve("f.bloom");
        int newKeys = 0;
        try (BloomFilter f = BloomFilter.create(file, spec)) {
            for (long i = 0; i < 20_000; i++) {
                newKeys += f.add(i) ? 1 : 0;
            }
        }
        assertTrue(newKeys > 19_500, "almost every distinct key is new: " + newKeys);
        try (BloomFilter f = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(spec, f.spec());
            for (long i = 0; i < 20_000; i++) {
                assertTrue(f.mightContain(i), "key " + i);
            }
            int falsePositives = 0;
            for (long i = 20_000; i < 120_000; i++) {
                falsePositives += f.mightContain(i) ? 1 : 0;
            }
            assertTrue(falsePositives < 1_300, "false positives " + falsePositives);
        }
    }

    @Test
    void keyTypesShareCanonicalBytes() throws Exception {
        try (BloomFilter f = BloomFilter.create(dir.resolve("k.bloom"), BloomSpec.forExpected(1000, 0.001))) {
            assertTrue(f.add("héllo 🌍"));
            byte[] utf8 = "héllo 🌍".getBytes(StandardCharsets.UTF_8);
            assertFalse(f.add(utf8));
            assertTrue(f.mightContain(ByteBuffer.wrap(utf8)));
            ByteBuffer direct = ByteBuffer.allocateDirect(utf8.length).put(utf8).flip();
            assertTrue(f.mightContain(direct));
            assertEquals(f.hasher().hash(new StringBuilder("héllo 🌍")), f.hasher().hash(utf8));
        }
    }

    @Test
    void countingRemove() throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(1 << 16).hashes(4).counterBits(4).build();
        try (BloomFilter f = BloomFilter.create(dir.resolve("c.bloom"), spec)) {
            f.add("a");
            f.add("a");
            assertEquals(2, f.count("a"));
            assertFalse(f.remove("never"));
            assertTrue(f.remove("a"));
            assertEquals(1, f.count("a"));
            assertTrue(f.remove("a"));
            assertFalse(f.mightContain("a"));
        }
    }
}

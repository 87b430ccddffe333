package io.bloomstore;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

    /**
     * add says true exactly when the key was definitely absent (some cell zero): the same answer
     * mightContain gave just before, false positives included, and a second add of a key is false.
     * The filter is sized for a quarter of the keys, so false positives really happen.
     */
    @ParameterizedTest
    @CsvSource({"1,STANDARD", "2,STANDARD", "4,STANDARD", "8,STANDARD", "16,STANDARD", "32,STANDARD",
            "1,BLOCKED", "2,BLOCKED", "4,BLOCKED", "8,BLOCKED", "16,BLOCKED", "32,BLOCKED"})
    void addReportsExactlyWhetherTheKeyWasDefinitelyAbsent(int bits, Layout layout) throws Exception {
        BloomSpec spec = BloomSpec.builder().expectedKeys(5_000).fpp(0.01).counterBits(bits).layout(layout).build();
        int newKeysReportedOld = 0;
        try (BloomFilter f = BloomFilter.create(dir.resolve("new.bloom"), spec)) {
            for (long key = 0; key < 20_000; key++) {
                boolean seemedPresent = f.mightContain(key);
                assertEquals(!seemedPresent, f.add(key), "add(" + key + ") after mightContain said " + seemedPresent);
                assertFalse(f.add(key), "a second add of " + key);
                assertTrue(f.mightContain(key));
                newKeysReportedOld += seemedPresent ? 1 : 0;
            }
        }
        assertTrue(newKeysReportedOld > 100, "the filter got full enough to give false positives: "
                + newKeysReportedOld);
    }

    /**
     * Counters that saturate stay saturated: adding other keys past saturation and removing them
     * again never takes a key that is still in the filter out. The filter is small, so keys share
     * cells, and the heavy keys are added more times than a counter can count.
     */
    @ParameterizedTest
    @CsvSource({"2,STANDARD", "4,STANDARD", "8,STANDARD", "2,BLOCKED", "4,BLOCKED", "8,BLOCKED"})
    void saturatedCountersNeverLoseAKey(int bits, Layout layout) throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(8_192).hashes(4).counterBits(bits).layout(layout).build();
        try (BloomFilter f = BloomFilter.create(dir.resolve("saturate.bloom"), spec)) {
            long timesPastSaturation = f.cells().maxValue() + 3;
            for (long key = 0; key < 500; key++) {
                f.add(key);
            }
            for (long key = 1_000; key < 1_500; key++) {
                for (int i = 0; i < timesPastSaturation; i++) {
                    f.add(key);
                }
            }
            assertTrue(FilterAssertions.largestCell(f) == f.cells().maxValue(), "some counters saturated");
            for (long key = 1_000; key < 1_500; key++) {
                for (int i = 0; i < timesPastSaturation; i++) {
                    f.remove(key);
                }
            }
            FilterAssertions.assertEveryKeyPresent(f, 0, 500);
        }
    }

    /**
     * Two threads adding the same new key at the same time: at least one of them is told it is new
     * (never both "seen before", which would make a dedup service drop the key). Both may be told
     * "new": each can be the one that sets a different zero cell, so add's answer is not a lock.
     */
    @Test
    void concurrentAddsOfANewKeyReportItNewAtLeastOnce() throws Exception {
        int keys = 200_000;
        // Sized so that false positives (both told "seen before", rightly) are below one in the run.
        BloomSpec spec = BloomSpec.forExpected(keys, 1e-9);
        boolean[][] reportedNew = new boolean[2][keys];
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (BloomFilter f = BloomFilter.create(dir.resolve("race.bloom"), spec)) {
            CyclicBarrier start = new CyclicBarrier(2);
            Future<?>[] adders = new Future<?>[2];
            for (int t = 0; t < 2; t++) {
                boolean[] mine = reportedNew[t];
                adders[t] = pool.submit(() -> {
                    start.await();
                    for (int key = 0; key < keys; key++) {
                        mine[key] = f.add(key);
                    }
                    return null;
                });
            }
            for (Future<?> adder : adders) {
                adder.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        int bothNew = 0;
        for (int key = 0; key < keys; key++) {
            assertTrue(reportedNew[0][key] || reportedNew[1][key], "key " + key + " was new but neither add said so");
            bothNew += reportedNew[0][key] && reportedNew[1][key] ? 1 : 0;
        }
        System.out.println("RACE keys added by two threads at once that both were told are new: " + bothNew + " of "
                + keys);
    }
}

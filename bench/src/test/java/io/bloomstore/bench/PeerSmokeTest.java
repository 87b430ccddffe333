package io.bloomstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One smoke test per filter kind, through the bench's {@link BenchFilter} as the benchmarks use it:
 * a small filter of each key type, filled half by single adds and half by the batch call, must
 * report every added key (no false negative, also after a store and load where the kind has a
 * serial form), a false-positive rate near its target, and a plausible size. Milliseconds per kind.
 */
class PeerSmokeTest {
    private static final long N = 20_000;
    private static final int ABSENT_CHUNKS = 200;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ComparedFilter.class)
    void holdsItsKeysAtAPlausibleRate(ComparedFilter kind) throws Exception {
        // DataSketches 7 runs on JDK 17's incubating foreign-memory module only (see bench/pom.xml).
        assumeTrue(kind != ComparedFilter.DATASKETCHES || ModuleLayer.boot().findModule("jdk.incubator.foreign").isPresent(),
                "no jdk.incubator.foreign on this JDK");
        for (KeyType type : KeyType.values()) {
            BenchFilter filter = kind.createEmpty(N, type, dir.resolve(type + ".bloom"));
            try {
                KeyChunk chunk = new KeyChunk(type);
                for (long first = 0; first < N; first += KeyChunk.SIZE) {
                    chunk.fill(first);
                    if (first < N / 2) {
                        filter.addEach(chunk);
                    } else {
                        filter.addBatch(chunk);
                    }
                }
                double bitsPerKey = (double) filter.bits() / N;
                assertTrue(bitsPerKey > 8 && bitsPerKey < 12, kind + " " + type + ": " + bitsPerKey + " bits per key");
                if (kind.storable()) {
                    Path stored = dir.resolve(kind.fileName(N, type));
                    filter.saveAndClose(stored);
                    filter = kind.load(stored, N, type);
                }
                assertAllPresent(filter, chunk, kind);
                long positives = 0;
                for (int c = 0; c < ABSENT_CHUNKS; c++) {
                    chunk.fill(Keys.ABSENT_BASE + (long) c * KeyChunk.SIZE);
                    positives += filter.mightContainEach(chunk);
                }
                double rate = positives / (double) (ABSENT_CHUNKS * KeyChunk.SIZE);
                // Blocked filters pay for their speed in rate (FastFilter's BlockedBloom most); 3 p bounds them all.
                assertTrue(rate > 0 && rate < 3 * ComparedFilter.FPP, kind + " " + type + ": false-positive rate " + rate);
            } finally {
                filter.close();
            }
        }
    }

    private static void assertAllPresent(BenchFilter filter, KeyChunk chunk, ComparedFilter kind) {
        for (long first = 0; first < N; first += KeyChunk.SIZE) {
            chunk.fill(first);
            assertEquals(KeyChunk.SIZE, filter.mightContainEach(chunk), kind + ": single queries, chunk " + first);
            assertEquals(KeyChunk.SIZE, filter.mightContainBatch(chunk), kind + ": batch queries, chunk " + first);
        }
    }
}

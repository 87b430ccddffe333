package io.bloomstore.bench.micro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.Layout;
import io.bloomstore.MembershipFilter;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.bench.KeyChunk;
import io.bloomstore.bench.KeyType;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The states of {@link SegmentedBenchmark} build each kind in the shape its comment promises and
 * answer correctly, both when filled and when opened from the stored file: every added key is
 * found, by single, batch and chained calls, so no benchmark of "present"
 * keys measures early exits, and the adds' keys are found too.
 */
class SegmentedBenchmarkTest {
    /** 32 000: epochs of 4 chunks, a chain whose first segment is 2 000 keys, and a room of 12 chunks. */
    private static final long N = 32_000;

    @TempDir
    Path dir;

    @BeforeEach
    void benchDir() {
        System.setProperty("bloomstore.bench.dir", dir.toString());
    }

    @AfterEach
    void clearBenchDir() {
        System.clearProperty("bloomstore.bench.dir");
    }

    @ParameterizedTest
    @EnumSource(SegmentedBenchmark.Kind.class)
    void eachKindHoldsItsKeysInTheShapeDescribed(SegmentedBenchmark.Kind kind) throws Exception {
        for (Layout layout : Layout.values()) {
            if (layout.isImported() || layout == Layout.SBBF) { // not a segmented file's layout
                continue; // never a region's layout
            }
            SegmentedBenchmark bench = bench(kind, layout);
            for (String trial : new String[] {"filling", "stored"}) {
                SegmentedBenchmark.Filled filled = new SegmentedBenchmark.Filled();
                filled.build(bench);
                String what = kind + " " + layout + " " + trial;
                try {
                    MembershipFilter filter = filled.filter;
                    if (filter instanceof GrowingBloomFilter growing) {
                        assertEquals(5, growing.segmentCount(), what + ": n keys from n / 16 at growth 2");
                    }
                    if (filter instanceof WindowedBloomFilter windowed) {
                        assertEquals(8, windowed.stats().parts().stream().filter(s -> s.setCells() > 0).count(),
                                what + ": n / 8 keys in each of 8 slots");
                    }
                    SegmentedBenchmark.PresentKeys present = new SegmentedBenchmark.PresentKeys();
                    present.size(bench);
                    present.scatter(bench);
                    java.util.Set<Long> walked = new java.util.HashSet<>();
                    SegmentedBenchmark.AbsentKeys absent = new SegmentedBenchmark.AbsentKeys();
                    absent.size(bench);
                    int falsePositives = 0;
                    int chainedFalsePositives = 0;
                    for (long c = 0; c < N / KeyChunk.SIZE; c++) {
                        present.next();
                        for (long key : present.chunk.longs()) {
                            walked.add(key);
                        }
                        assertEquals(KeyChunk.SIZE, bench.mightContainPresent(filled, present), what);
                        assertEquals(KeyChunk.SIZE, bench.mightContainPresentBatch(filled, present), what);
                        assertEquals(KeyChunk.SIZE, bench.mightContainPresentLatency(filled, present), what);
                        absent.next();
                        int single = bench.mightContainAbsent(filled, absent);
                        assertEquals(single, bench.mightContainAbsentBatch(filled, absent), what);
                        falsePositives += single;
                        chainedFalsePositives += bench.mightContainAbsentLatency(filled, absent);
                    }
                    assertEquals(N, walked.size(), what + ": the scattered walk visits each of the n present keys once");
                    assertTrue(falsePositives < 0.02 * N, what + ": " + falsePositives + " false positives");
                    assertTrue(chainedFalsePositives < 0.02 * N,
                            what + ": " + chainedFalsePositives + " false positives, chained");
                } finally {
                    filled.close();
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SegmentedBenchmark.Kind.class)
    void addsFindTheirKeysAcrossRefreshesAndRotations(SegmentedBenchmark.Kind kind) throws Exception {
        SegmentedBenchmark bench = bench(kind, Layout.BLOCKED);
        SegmentedBenchmark.Adding adding = new SegmentedBenchmark.Adding();
        adding.build(bench);
        try {
            long chunks = N / KeyChunk.SIZE; // past a chain's room and several of a ring's epochs
            for (int iteration = 0; iteration < 2; iteration++) {
                adding.makeRoom();
                for (long c = 0; c < chunks; c++) {
                    adding.next();
                    if (c % 2 == 0) {
                        bench.add(adding);
                    } else {
                        bench.addBatch(adding);
                    }
                    KeyChunk added = adding.chunk;
                    int found = 0;
                    for (long key : added.longs()) {
                        found += adding.target.mightContain(key) ? 1 : 0;
                    }
                    assertEquals(KeyChunk.SIZE, found, kind + ", chunk " + c);
                }
            }
        } finally {
            adding.delete();
        }
    }

    private static SegmentedBenchmark bench(SegmentedBenchmark.Kind kind, Layout layout) {
        SegmentedBenchmark bench = new SegmentedBenchmark();
        bench.kind = kind;
        bench.layout = layout;
        bench.n = N;
        return bench;
    }
}

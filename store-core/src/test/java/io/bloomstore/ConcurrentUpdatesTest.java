package io.bloomstore;

import static io.bloomstore.FilterAssertions.assertEveryKeyPresent;
import static io.bloomstore.FilterAssertions.assertSameCells;
import static io.bloomstore.FilterAssertions.largestCell;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.bloomstore.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Threads of one JVM and separate JVM processes updating one filter at the same time: no update is
 * lost, so every acknowledged key stays present (no false negatives) and the cells end exactly as
 * a single thread applying the same net updates leaves them.
 */
class ConcurrentUpdatesTest {
    private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(60);
    /** The churn keys and the added keys never meet, so a plan's peak stays small. */
    private static final long ADDED_KEYS_START = 1L << 40;

    @TempDir
    Path dir;

    /** Who updates the shared filter: threads of this JVM sharing one handle, or child JVMs. */
    enum Workers {
        THREADS(4) {
            @Override
            List<RunInterval> run(BloomFilter shared, List<WorkerPlan> plans) throws Exception {
                CyclicBarrier start = new CyclicBarrier(plans.size());
                ExecutorService pool = Executors.newFixedThreadPool(plans.size());
                try {
                    List<Future<RunInterval>> runs = new ArrayList<>();
                    for (WorkerPlan plan : plans) {
                        runs.add(pool.submit(() -> {
                            start.await();
                            long begin = FilterWorkerProcess.epochNanos();
                            plan.runOn(shared);
                            return new RunInterval(begin, FilterWorkerProcess.epochNanos());
                        }));
                    }
                    List<RunInterval> intervals = new ArrayList<>();
                    for (Future<RunInterval> run : runs) {
                        intervals.add(run.get(60, TimeUnit.SECONDS));
                    }
                    return intervals;
                } finally {
                    pool.shutdownNow();
                }
            }
        },
        PROCESSES(2) {
            @Override
            List<RunInterval> run(BloomFilter shared, List<WorkerPlan> plans) throws Exception {
                List<ChildJvm> children = new ArrayList<>();
                try {
                    for (int i = 0; i < plans.size(); i++) {
                        children.add(ChildJvm.start(FilterWorkerProcess.class, shared.path().toString()));
                    }
                    for (ChildJvm child : children) {
                        child.expectLine("ready", CHILD_TIMEOUT);
                    }
                    // Every child is mapped and waiting on its stdin: the commands are the start signal.
                    for (int i = 0; i < plans.size(); i++) {
                        children.get(i).send("run " + plans.get(i).encode());
                    }
                    List<RunInterval> intervals = new ArrayList<>();
                    for (ChildJvm child : children) {
                        String[] done = child.readLine(CHILD_TIMEOUT).split(" ");
                        intervals.add(new RunInterval(Long.parseLong(done[1]), Long.parseLong(done[2])));
                    }
                    for (ChildJvm child : children) {
                        child.awaitSuccess(CHILD_TIMEOUT);
                    }
                    assertRanAtTheSameTime(intervals);
                    return intervals;
                } finally {
                    for (ChildJvm child : children) {
                        child.close();
                    }
                }
            }
        };

        final int count;

        Workers(int count) {
            this.count = count;
        }

        /** Runs {@code plans[i]} on worker i, all starting together, and returns when all are done. */
        abstract List<RunInterval> run(BloomFilter shared, List<WorkerPlan> plans) throws Exception;
    }

    /** When a worker made its first and its last update, in epoch nanoseconds. */
    record RunInterval(long start, long end) {
    }

    static Stream<Arguments> addOnlyCases() {
        Stream<Arguments> threads = Stream.of(Layout.values()).filter(layout -> !layout.isImported()).flatMap(layout ->
                IntStream.of(1, 2, 4, 8, 16, 32).filter(bits -> bits == 1 || (layout != Layout.SECTORIZED && layout != Layout.SBBF))
                        .mapToObj(bits -> arguments(Workers.THREADS, bits, layout, 50_000)));
        Stream<Arguments> processes = Stream.of(
                arguments(Workers.PROCESSES, 1, Layout.STANDARD, 200_000),
                arguments(Workers.PROCESSES, 8, Layout.BLOCKED, 200_000));
        return Stream.concat(threads, processes);
    }

    /**
     * Each worker adds its own range of keys, half of which its neighbour adds too. Saturating
     * increments commute, so the cells must equal the reference even for 2-bit counters that
     * saturate.
     */
    @ParameterizedTest(name = "{0}, {1}-bit cells, {2}")
    @MethodSource("addOnlyCases")
    void concurrentAddsLoseNoUpdate(Workers workers, int bits, Layout layout, int keysPerWorker) throws Exception {
        List<WorkerPlan> plans = IntStream.range(0, workers.count)
                .mapToObj(i -> WorkerPlan.addOnly((long) i * keysPerWorker / 2, keysPerWorker)).toList();
        long distinctKeys = (workers.count + 1L) * keysPerWorker / 2;
        BloomSpec spec = BloomSpec.builder().expectedKeys(distinctKeys).fpp(0.01).counterBits(bits).layout(layout)
                .build();
        runAndCompareWithReference(workers, spec, plans);
    }

    /**
     * Every worker increments and decrements the counters of the same keys at the same time (the
     * worst contention: same keys, same order, same words), then adds a range of its own. Below
     * saturation the counters must come out exact: equal to a reference that only got the adds.
     */
    @ParameterizedTest(name = "{0}, {1}-bit counters, {2}")
    @CsvSource({"THREADS, 4, STANDARD, 4000", "THREADS, 8, STANDARD, 4000", "THREADS, 16, STANDARD, 4000",
            "THREADS, 32, STANDARD, 4000", "THREADS, 8, BLOCKED, 4000",
            "PROCESSES, 8, STANDARD, 20000", "PROCESSES, 4, BLOCKED, 20000"})
    void concurrentIncrementsAndDecrementsLeaveExactCounters(Workers workers, int bits, Layout layout, int keysPerWorker)
            throws Exception {
        int churnRounds = 10;
        List<WorkerPlan> plans = IntStream.range(0, workers.count)
                .mapToObj(i -> new WorkerPlan(0, keysPerWorker, churnRounds,
                        ADDED_KEYS_START + (long) i * keysPerWorker / 2, keysPerWorker)).toList();
        BloomSpec spec = BloomSpec.builder().cells(1 << 20).hashes(4).counterBits(bits).layout(layout).build();
        assertCountersNeverSaturate(spec, plans);
        runAndCompareWithReference(workers, spec, plans);
    }

    /**
     * Runs the plans on a new filter, one worker each, then checks that every key they added is
     * present and that the cells equal those of a reference given only the plans' net effects.
     */
    private void runAndCompareWithReference(Workers workers, BloomSpec spec, List<WorkerPlan> plans)
            throws Exception {
        try (BloomFilter shared = BloomFilter.create(dir.resolve("shared.bloom"), spec);
                BloomFilter reference = BloomFilter.create(dir.resolve("reference.bloom"), spec)) {
            workers.run(shared, plans);
            for (WorkerPlan plan : plans) {
                assertEveryKeyPresent(shared, plan.addFrom(), plan.addCount());
            }
            WorkerPlan.applyNetEffects(plans, reference);
            assertSameCells(reference, shared);
        }
    }

    /** Exactness is promised below saturation only: check the test's sizing keeps it there. */
    private void assertCountersNeverSaturate(BloomSpec spec, List<WorkerPlan> plans) throws IOException {
        try (BloomFilter peak = BloomFilter.create(dir.resolve("peak.bloom"), spec)) {
            plans.forEach(plan -> plan.applyPeakTo(peak));
            long largest = largestCell(peak);
            assertTrue(largest < peak.cells().maxValue(), "test sizing: a counter would reach saturation ("
                    + largest + " of " + peak.cells().maxValue() + "); give the filter more cells");
        }
    }

    private static void assertRanAtTheSameTime(List<RunInterval> intervals) {
        long lastStart = intervals.stream().mapToLong(RunInterval::start).max().orElseThrow();
        long firstEnd = intervals.stream().mapToLong(RunInterval::end).min().orElseThrow();
        assertTrue(lastStart < firstEnd, "the workers did not overlap in time, so this run tested no concurrency: "
                + intervals);
        long firstStart = intervals.stream().mapToLong(RunInterval::start).min().orElseThrow();
        long lastEnd = intervals.stream().mapToLong(RunInterval::end).max().orElseThrow();
        System.out.printf("OVERLAP %d workers updated together for %.1f of %.1f ms%n", intervals.size(),
                (firstEnd - lastStart) / 1e6, (lastEnd - firstStart) / 1e6);
    }
}

package io.bloomstore.reliability;

import io.bloomstore.CellsAccess;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.BloomSpec;
import io.bloomstore.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several processes, each with several threads, add, query and remove on one counting filter for a
 * bounded time ({@link SoakPlan} says what each thread does). Afterwards every counter must be
 * exactly what the net adds and removes make it: the parent replays the survivors' net counts into a
 * fresh filter, single-threaded, and compares the two word by word. Equal words mean no lost and no
 * doubled update from any thread or process, no false negative, and every count exact.
 *
 * <p>{@code -Dbloomstore.soak.millis=N} sets the duration for a long run (default 10 s).
 */
class ConcurrencySoakTest {
    private static final int PROCESSES = 2;
    private static final int THREADS = 2;
    private static final long MILLIS = Long.getLong("bloomstore.soak.millis", 10_000);
    /**
     * 16 Mi 8-bit counters, 4 probes: at most 4 Mi live keys (a generation per thread) put about 1.3
     * increments on a cell on average, so no counter comes near saturation (255), where counts stop
     * being exact by design.
     */
    private static final BloomSpec SPEC = BloomSpec.builder().cells(1L << 24).hashes(4).counterBits(8).build();

    @TempDir
    Path dir;

    @Test
    void processesAndThreadsAddQueryAndRemoveWithoutLosingAnUpdate() throws Exception {
        Path soaked = dir.resolve("soak.bloom");
        long start = System.nanoTime();
        List<SoakPlan.Report> reports = soak(soaked);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(PROCESSES * THREADS, reports.size());
        for (SoakPlan.Report report : reports) {
            assertEquals(0, report.violations(), "a thread saw its own key missing or under-counted: " + report);
        }

        Path replay = dir.resolve("replay.bloom");
        long keysChecked = checkEveryKeyAndReplay(soaked, replay, reports);
        assertEquals(0, differingWords(soaked, replay), "counter words differing from the single-threaded replay");

        long operations = reports.stream().mapToLong(SoakPlan.Report::operations).sum();
        System.out.printf("soak: %d processes x %d threads for %.1f s: %,d operations (%,d adds, %,d removes,"
                        + " %,d queries), %,.0f ops/s; %,d keys checked, all %,d counter words exact%n",
                PROCESSES, THREADS, seconds, operations, reports.stream().mapToLong(SoakPlan.Report::adds).sum(),
                reports.stream().mapToLong(SoakPlan.Report::removes).sum(),
                reports.stream().mapToLong(SoakPlan.Report::queries).sum(), operations / seconds, keysChecked,
                SPEC.cellBytes() / 8);
        assertTrue(seconds * 1000 >= MILLIS, "the soak ran its whole time");
    }

    /** Creates {@code file}, runs the worker processes on it, started together, and collects every thread's report. */
    private List<SoakPlan.Report> soak(Path file) throws Exception {
        BloomFilter.create(file, SPEC).close();
        List<ChildJvm> workers = new ArrayList<>();
        List<SoakPlan.Report> reports = new ArrayList<>();
        try {
            for (int p = 0; p < PROCESSES; p++) {
                workers.add(ChildJvm.start(SoakWorker.class, file.toString(), Integer.toString(p),
                        Integer.toString(THREADS), Long.toString(MILLIS)));
            }
            for (ChildJvm worker : workers) {
                worker.expectLine("ready", Children.TIMEOUT);
            }
            workers.forEach(worker -> worker.send("go"));
            // The time, plus a generation's drain, plus slack for a loaded machine.
            Duration finish = Duration.ofMillis(MILLIS).plusMinutes(2);
            for (ChildJvm worker : workers) {
                for (String line = worker.readLine(finish); !line.equals("done"); line = worker.readLine(finish)) {
                    reports.add(SoakPlan.Report.parse(line));
                }
            }
            for (ChildJvm worker : workers) {
                worker.awaitSuccess(Children.TIMEOUT);
            }
        } finally {
            for (ChildJvm worker : workers) {
                worker.close();
            }
        }
        return reports;
    }

    /**
     * Checks that the soaked filter holds every live key at least as often as expected, while adding
     * each live key that often to a fresh {@code replay} filter; returns the number of keys checked.
     */
    private static long checkEveryKeyAndReplay(Path soaked, Path replay, List<SoakPlan.Report> reports)
            throws Exception {
        long keysChecked = 0;
        try (BloomFilter filter = BloomFilter.open(soaked, OpenMode.READ_ONLY);
                BloomFilter expected = BloomFilter.create(replay, SPEC)) {
            for (SoakPlan.Report report : reports) {
                for (long index = 0; index < report.next(); index++) {
                    long key = SoakPlan.key(report.process(), report.thread(), report.generation(), index);
                    int count = SoakPlan.expectedCount(index, report.next());
                    if (filter.count(key) < count) {
                        fail("key " + index + " of " + report + " is counted " + filter.count(key) + " < " + count);
                    }
                    for (int i = 0; i < count; i++) {
                        expected.add(key);
                    }
                    keysChecked++;
                }
            }
        }
        return keysChecked;
    }

    private static long differingWords(Path soaked, Path replay) throws Exception {
        try (BloomFilter a = BloomFilter.open(soaked, OpenMode.READ_ONLY);
                BloomFilter b = BloomFilter.open(replay, OpenMode.READ_ONLY)) {
            CellArray actual = CellsAccess.cells(a);
            CellArray expected = CellsAccess.cells(b);
            long differing = 0;
            for (long w = 0; w < actual.words(); w++) {
                differing += actual.getWordVolatile(w) == expected.getWordVolatile(w) ? 0 : 1;
            }
            return differing;
        }
    }
}

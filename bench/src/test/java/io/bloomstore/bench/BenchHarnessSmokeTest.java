package io.bloomstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.bench.micro.MightContainBenchmark;
import java.nio.file.Path;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Benchmarks are not tests: this only proves the harness works, by running one benchmark method
 * in this JVM ({@code forks(0)}: surefire's argLine already carries the mapping flags) for one
 * tiny iteration on a small filter, bloomstore and its Guava twin. Seconds, not minutes.
 */
class BenchHarnessSmokeTest {
    @TempDir
    Path dir;

    @Test
    void oneMightContainIterationRunsForBothSides() throws Exception {
        System.setProperty("bloomstore.bench.dir", dir.toString());
        // JMH's lock keeps real runs from measuring each other; this one measures nothing, and must
        // not fail because a benchmark runs elsewhere on the machine
        System.setProperty("jmh.ignoreLock", "true");
        try {
            Options options = new OptionsBuilder()
                    .include(MightContainBenchmark.class.getName() + ".mightContainPresent$")
                    .param("impl", "STANDARD", "GUAVA")
                    .param("n", "100000")
                    .param("keyType", "LONG")
                    .forks(0)
                    .warmupIterations(0)
                    .measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(100))
                    .timeUnit(TimeUnit.MICROSECONDS)
                    .shouldFailOnError(true)
                    .build();
            Collection<RunResult> results = new Runner(options).run();
            assertEquals(2, results.size());
            for (RunResult result : results) {
                assertTrue(result.getPrimaryResult().getScore() > 0, result.getParams().toString());
            }
        } finally {
            System.clearProperty("bloomstore.bench.dir");
            System.clearProperty("jmh.ignoreLock");
        }
    }
}

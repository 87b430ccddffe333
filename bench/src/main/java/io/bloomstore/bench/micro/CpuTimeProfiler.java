package io.bloomstore.bench.micro;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler ({@code -prof io.bloomstore.bench.micro.CpuTimeProfiler}) adding the secondary
 * result {@value #METRIC}: the fork's process CPU time per operation over each iteration.
 *
 * <p>Wall-clock throughput counts the time other processes hold the CPU, which on a shared,
 * oversubscribed machine swamps the differences being measured. CPU time counts only this JVM's
 * work (benchmark threads, and the GC and JIT threads working for them; a thread stalled on a
 * cache miss is still on the CPU), so it stays close to the quiet-machine cost. It cannot show
 * thread scaling, and cache pollution by the other processes still leaks into it.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    /** The secondary result's name, a suffix of the benchmark name in JMH output. */
    public static final String METRIC = "cpuNanosPerOp";

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private long cpuAtStart;

    @Override
    public String getDescription() {
        return "process CPU time per op, robust against other processes taking the CPU";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
        cpuAtStart = OS.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmark, IterationParams iteration,
            IterationResult result) {
        long cpu = OS.getProcessCpuTime() - cpuAtStart;
        long ops = result.getMetadata() == null ? 0 : result.getMetadata().getMeasuredOps();
        if (ops <= 0) {
            return List.of();
        }
        return List.of(new ScalarResult(METRIC, (double) cpu / ops, "ns/op", AggregationPolicy.AVG));
    }
}

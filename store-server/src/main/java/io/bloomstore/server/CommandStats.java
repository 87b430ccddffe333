package io.bloomstore.server;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * INFO commandstats: for each command, the calls run, those that answered an error (failed) and those
 * refused before running (rejected: wrong arity, no AUTH), in Redis's {@code cmdstat_NAME:calls=...}
 * lines, which monitoring agents read.
 *
 * <p>The time of a call is measured for about one call in {@link #SAMPLE_ONE_IN}, chosen at random,
 * and {@code usec} is the calls times the mean sampled time: two clock reads per command would cost
 * a few percent of a pipelined one-key command, a sampled mean of calls of one command costs nothing
 * measurable, and a random choice cannot fall in step with a pipeline that alternates commands.
 */
final class CommandStats {
    static final int SAMPLE_ONE_IN = 64;

    private final LongAdder[] calls = counters();
    private final LongAdder[] failed = counters();
    private final LongAdder[] rejected = counters();
    private final LongAdder[] sampled = counters();
    private final LongAdder[] sampledNanos = counters();
    /** Requests naming no command served, counted in {@code total_commands_processed} only. */
    private final LongAdder unknown = new LongAdder();

    private static LongAdder[] counters() {
        LongAdder[] counters = new LongAdder[CommandTable.COMMANDS.size()];
        for (int i = 0; i < counters.length; i++) {
            counters[i] = new LongAdder();
        }
        return counters;
    }

    /** A connection's choice of which calls to time: a countdown to the next, drawn at random. */
    static final class Sampler {
        private final SplittableRandom random;
        private int countdown;

        Sampler(long seed) {
            random = new SplittableRandom(seed);
            countdown = next();
        }

        /** Whether to time this call. */
        boolean sample() {
            if (--countdown > 0) {
                return false;
            }
            countdown = next();
            return true;
        }

        private int next() {
            return 1 + random.nextInt(2 * SAMPLE_ONE_IN - 1); // 1 to 2n - 1: a mean of n
        }
    }

    void called(CommandTable.Spec spec) {
        calls[spec.index()].increment();
    }

    void timed(CommandTable.Spec spec, long nanos) {
        sampled[spec.index()].increment();
        sampledNanos[spec.index()].add(nanos);
    }

    void failed(CommandTable.Spec spec) {
        failed[spec.index()].increment();
    }

    void rejected(CommandTable.Spec spec) {
        if (spec == null) {
            unknown.increment();
        } else {
            rejected[spec.index()].increment();
        }
    }

    /** INFO stats' {@code total_commands_processed}: every request, run, rejected or unknown. */
    long total() {
        long total = unknown.sum();
        for (int i = 0; i < calls.length; i++) {
            total += calls[i].sum() + rejected[i].sum();
        }
        return total;
    }

    /** The section's lines, {@code cmdstat_NAME:calls=..,usec=..,usec_per_call=..,rejected_calls=..,failed_calls=..}. */
    void write(StringBuilder text) {
        for (CommandTable.Spec spec : CommandTable.COMMANDS.values()) {
            int i = spec.index();
            long n = calls[i].sum();
            long refused = rejected[i].sum();
            if (n == 0 && refused == 0) {
                continue;
            }
            long times = sampled[i].sum();
            double perCall = times == 0 ? 0 : sampledNanos[i].sum() / 1000.0 / times;
            text.append("cmdstat_").append(spec.name()).append(":calls=").append(n)
                    .append(",usec=").append(Math.round(perCall * n))
                    .append(",usec_per_call=").append(String.format(Locale.ROOT, "%.2f", perCall))
                    .append(",rejected_calls=").append(refused)
                    .append(",failed_calls=").append(failed[i].sum()).append("\r\n");
        }
    }
}

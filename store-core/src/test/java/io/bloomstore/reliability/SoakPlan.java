package io.bloomstore.reliability;

import io.bloomstore.BloomFilter;

/**
 * What every soak thread does, and so what the filter must hold afterwards. Shared by the workers
 * ({@link Runner}) and the parent's check ({@link #expectedCount}), so the two cannot drift apart.
 *
 * <p>Thread t of process p walks its own keys {@link #key(int, int, long, long) key(p, t, g, 0, 1, ...)}
 * of generation g. Step j adds key j {@link #adds(long)} times (1, or 2 for every third key, so
 * counters go above 1), checks it is present and counted at least that often, and removes key
 * {@code j - REMOVE_LAG} once if that index is odd (so removals interleave with other threads' adds on
 * shared cells). After {@link #KEYS_PER_GENERATION} steps the thread removes every key of the
 * generation that is still counted and starts the next one: counters stay far below saturation in a
 * run of any length, and a generation fully drained must leave no trace.
 */
final class SoakPlan {
    static final long KEYS_PER_GENERATION = 1 << 20;
    static final int REMOVE_LAG = 1024;
    /** How often a thread looks at the clock, in steps: only between steps, so a step is never cut. */
    private static final int CLOCK_EVERY = 1024;
    /**
     * A thread whose time runs out during a generation's drain goes on to this many keys of the next
     * one, so the final check always has live keys, some of them already removed once.
     */
    private static final int MIN_KEYS_AT_END = 4 * REMOVE_LAG;

    private SoakPlan() {
    }

    /** Disjoint across processes, threads and generations: 8 bits each of p and t, 16 of g, 32 of the index. */
    static long key(int process, int thread, long generation, long index) {
        return (long) process << 56 | (long) thread << 48 | generation << 32 | index;
    }

    /** How often step {@code index} adds its key. */
    static int adds(long index) {
        return index % 3 == 0 ? 2 : 1;
    }

    /**
     * The count key {@code index} of the current generation must have once the thread stopped before
     * step {@code next}: its adds, less the one removal made {@link #REMOVE_LAG} steps later for odd keys.
     */
    static int expectedCount(long index, long next) {
        boolean removed = index % 2 == 1 && index + REMOVE_LAG < next;
        return adds(index) - (removed ? 1 : 0);
    }

    /** One soak thread. */
    static final class Runner implements Runnable {
        private final BloomFilter filter;
        private final int process;
        private final int thread;
        private final long deadlineNanos;
        private long generation;
        private long next;
        private long adds;
        private long removes;
        private long queries;
        private long violations;

        Runner(BloomFilter filter, int process, int thread, long deadlineNanos) {
            this.filter = filter;
            this.process = process;
            this.thread = thread;
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        public void run() {
            while (next < MIN_KEYS_AT_END || next % CLOCK_EVERY != 0 || System.nanoTime() < deadlineNanos) {
                step(next);
                next++;
                if (next == KEYS_PER_GENERATION) {
                    drainGeneration();
                    generation++;
                    next = 0;
                }
            }
        }

        private void step(long index) {
            long key = key(process, thread, generation, index);
            int times = adds(index);
            for (int i = 0; i < times; i++) {
                filter.add(key);
            }
            adds += times;
            queries += 2;
            if (!filter.mightContain(key) || filter.count(key) < times) {
                violations++;
            }
            long earlier = index - REMOVE_LAG;
            if (earlier >= 0 && earlier % 2 == 1) {
                removes++;
                if (!filter.remove(key(process, thread, generation, earlier))) {
                    violations++;
                }
            }
        }

        private void drainGeneration() {
            for (long index = 0; index < KEYS_PER_GENERATION; index++) {
                long key = key(process, thread, generation, index);
                for (int left = expectedCount(index, KEYS_PER_GENERATION); left > 0; left--) {
                    removes++;
                    if (!filter.remove(key)) {
                        violations++;
                    }
                }
            }
        }

        /** The line the parent parses with {@link Report#parse}. */
        String report() {
            return String.join(" ", "thread", Integer.toString(process), Integer.toString(thread),
                    Long.toString(generation), Long.toString(next), Long.toString(adds), Long.toString(removes),
                    Long.toString(queries), Long.toString(violations));
        }
    }

    /** One thread's {@link Runner#report()}, read back by the parent. */
    record Report(int process, int thread, long generation, long next, long adds, long removes, long queries,
            long violations) {
        static Report parse(String line) {
            String[] f = line.split(" ");
            if (f.length != 9 || !f[0].equals("thread")) {
                throw new AssertionError("not a soak report: " + line);
            }
            return new Report(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]),
                    Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]),
                    Long.parseLong(f[8]));
        }

        long operations() {
            return adds + removes + queries;
        }
    }
}

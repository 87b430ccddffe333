package io.bloomstore.reliability;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Child of {@link CrashRecoveryTest}: opens a filter read-write and adds keys {@code first, first+1, ...}
 * until it is killed, printing each key only after its add returned, so every key the parent reads
 * is an acknowledged one.
 *
 * <p>Arguments: {@code FILE FIRST_KEY BATCH}. With {@code BATCH = 1} each key goes through
 * {@code add(long)} and its line is flushed at once; with more, {@code addAll(long[])} adds a
 * batch and then its keys are printed and flushed together (the dedup service's batched path).
 * Prints {@code open} once the filter is open. Stops by itself after {@link #MAX_KEYS} keys or when
 * the parent has gone.
 */
public final class CrashingAdder {
    /** A bound, so a child whose parent died without killing it ends by itself. */
    static final long MAX_KEYS = 50_000_000;

    private CrashingAdder() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long first = Long.parseLong(args[1]);
        int batch = Integer.parseInt(args[2]);
        PrintWriter out = new PrintWriter(System.out, false);
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            out.println("open");
            Children.flushOrExit(out);
            long[] keys = new long[batch];
            for (long next = first; next < first + MAX_KEYS; next += batch) {
                if (batch == 1) {
                    filter.add(next);
                    out.println(next);
                } else {
                    for (int i = 0; i < batch; i++) {
                        keys[i] = next + i;
                    }
                    filter.addAll(keys);
                    for (long key : keys) {
                        out.println(key);
                    }
                }
                Children.flushOrExit(out);
            }
        }
    }
}

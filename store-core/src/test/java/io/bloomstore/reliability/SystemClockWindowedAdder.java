package io.bloomstore.reliability;

import io.bloomstore.OpenMode;
import io.bloomstore.WindowedBloomFilter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Child of {@link CopiesOfFastRotatingFilesTest}: opens a windowed filter read-write on the system
 * clock and adds keys {@code 0, 1, ...} until it is killed, printing every 16th key, with the
 * clock's time read before its add began, once the add returned: {@code KEY MILLIS}. So every line
 * names a key acknowledged in an epoch no earlier than that time's.
 *
 * <p>Arguments: {@code FILE}. Prints {@code open} once the filter is open. Stops by itself after
 * {@link CrashingAdder#MAX_KEYS} keys or when the parent has gone.
 */
public final class SystemClockWindowedAdder {
    private SystemClockWindowedAdder() {
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(System.out, false);
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(Path.of(args[0]), OpenMode.READ_WRITE, Clock.systemUTC())) {
            out.println("open");
            Children.flushOrExit(out);
            for (long key = 0; key < CrashingAdder.MAX_KEYS; key++) {
                long before = System.currentTimeMillis();
                filter.add(key);
                if (key % 16 == 0) {
                    out.println(key + " " + before);
                    Children.flushOrExit(out);
                }
            }
        }
    }
}

package io.bloomstore;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The {@code main} of a child JVM ({@link io.bloomstore.testing.ChildJvm}) that opens one filter
 * file read-write and works on it on command, so tests can have real processes share a file.
 *
 * <p>It prints {@code ready} once the file is mapped, then answers each line of stdin:
 * <ul>
 *   <li>{@code run PLAN}: runs a {@link WorkerPlan}; prints {@code done START END}, the wall-clock
 *       epoch nanoseconds of its first and last update, so the parent can check that the children
 *       really worked at the same time;
 *   <li>{@code add KEY} / {@code contains KEY}: prints what add / mightContain returned;
 *   <li>{@code add-acknowledged FROM COUNT EVERY}: adds the keys one by one and after every EVERY of
 *       them prints {@code acknowledged N} (the keys below FROM + N have returned from add), for
 *       tests that kill the process in the middle;
 * </ul>
 * At the end of its input it closes the filter and exits 0; any exception exits non-zero with the
 * stack trace on stderr.
 */
public final class FilterWorkerProcess {
    private FilterWorkerProcess() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (BloomFilter filter = BloomFilter.open(Path.of(args[0]), OpenMode.READ_WRITE)) {
            out.println("ready");
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] words = line.split(" ");
                switch (words[0]) {
                    case "run" -> {
                        WorkerPlan plan = WorkerPlan.decode(words, 1);
                        long start = epochNanos();
                        plan.runOn(filter);
                        out.println("done " + start + " " + epochNanos());
                    }
                    case "add" -> out.println(filter.add(Long.parseLong(words[1])));
                    case "contains" -> out.println(filter.mightContain(Long.parseLong(words[1])));
                    case "add-acknowledged" -> addAcknowledged(filter, Long.parseLong(words[1]),
                            Long.parseLong(words[2]), Long.parseLong(words[3]), out);
                    default -> throw new IllegalArgumentException("unknown command: " + line);
                }
            }
        }
    }

    private static void addAcknowledged(BloomFilter filter, long from, long count, long every, PrintStream out) {
        for (long n = 1; n <= count; n++) {
            filter.add(from + n - 1);
            if (n % every == 0) {
                out.println("acknowledged " + n);
            }
        }
    }

    /** Wall-clock time in nanoseconds since the epoch: comparable between processes of one machine. */
    static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}

package io.bloomstore.reliability;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Child of {@link DestructiveOperationsOnLiveFileTest}: holds a filter open read-write and keeps adding
 * its own keys ({@code FIRST, FIRST+1, ...}) and querying them at random, while the parent runs destructive
 * operations on the same path. Between two adds it answers the parent's commands:
 *
 * <ul>
 *   <li>{@code ping}: re-checks every key it added through its own mapping, answers {@code pong N}
 *       (N keys added so far) or {@code lost KEY};
 *   <li>{@code contains KEY}: answers {@code present} or {@code absent}, as its mapping sees it;
 *   <li>{@code stop}: re-checks every key, closes the filter, answers {@code done N} and exits 0.
 * </ul>
 *
 * Prints {@code ready} once 1,000 keys are in. A SIGBUS on its mapping would kill it (exit 134) or
 * surface as an InternalError (exit 1): the parent sees either.
 */
public final class LiveFileUser {
    private static final int KEYS_BEFORE_READY = 1_000;
    /**
     * Mostly queries of earlier keys, one add in 64: the mapping is touched all the time while the
     * key set (and so the cost of re-checking it on every command) grows slowly.
     */
    private static final int QUERIES_PER_ADD = 64;
    /** A bound on the key set, so a child left running stays cheap to re-check. */
    private static final long MAX_KEYS = 2_000_000;

    private LiveFileUser() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long first = Long.parseLong(args[1]);
        PrintWriter out = new PrintWriter(System.out, false);
        BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> readCommands(commands), "commands");
        reader.setDaemon(true);
        reader.start();
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            long added = 0;
            long random = first;
            for (long step = 0; ; step++) {
                boolean adding = step % QUERIES_PER_ADD == 0 && added < MAX_KEYS;
                long key;
                if (adding) {
                    key = first + added;
                    filter.add(key);
                    added++;
                } else {
                    random = random * 6364136223846793005L + 1442695040888963407L; // LCG: no allocation
                    key = first + Long.remainderUnsigned(random, added);
                }
                if (!filter.mightContain(key)) {
                    out.println("lost " + key);
                    Children.flushOrExit(out);
                    System.exit(3);
                }
                if (adding && added == KEYS_BEFORE_READY) {
                    out.println("ready");
                    Children.flushOrExit(out);
                }
                String command = commands.poll();
                if (command == null) {
                    continue;
                }
                long missing = firstMissing(filter, first, added);
                if (missing >= 0) {
                    out.println("lost " + missing);
                } else if (command.equals("ping")) {
                    out.println("pong " + added);
                } else if (command.startsWith("contains ")) {
                    out.println(filter.mightContain(Long.parseLong(command.substring(9))) ? "present" : "absent");
                } else if (command.equals("stop")) {
                    filter.close();
                    out.println("done " + added);
                    Children.flushOrExit(out);
                    return;
                } else {
                    out.println("unknown command " + command);
                }
                Children.flushOrExit(out);
            }
        }
    }

    /** The first of {@code first .. first+count} the filter does not hold, or -1. */
    private static long firstMissing(BloomFilter filter, long first, long count) {
        for (long key = first; key < first + count; key++) {
            if (!filter.mightContain(key)) {
                return key;
            }
        }
        return -1;
    }

    private static void readCommands(BlockingQueue<String> commands) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                commands.add(line);
            }
        } catch (java.io.IOException e) {
            // parent gone
        }
        // stdin closed: the parent has gone, so stop as if told to
        commands.add("stop");
    }
}

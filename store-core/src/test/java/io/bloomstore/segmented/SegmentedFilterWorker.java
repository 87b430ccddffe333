package io.bloomstore.segmented;

import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.WindowedBloomFilter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The {@code main} of a child JVM ({@link io.bloomstore.testing.ChildJvm}) that opens a growing or
 * windowed filter file read-write and works on it on command.
 *
 * <p>Arguments: {@code growing FILE [HALT_AT]} or {@code windowed FILE CLOCK_MILLIS [HALT_AT]} (a
 * clock standing at that instant until told otherwise); HALT_AT names a crash point (growth, clear) where the JVM halts
 * as if killed with SIGKILL. Prints {@code ready} once the file is open, then answers each line of stdin:
 * <ul>
 *   <li>{@code add FROM COUNT BATCH}: adds keys FROM .. FROM + COUNT - 1, one by one (BATCH = 1)
 *       or BATCH at a time through addHashes; prints {@code added} when every add has returned;
 *   <li>{@code add-acknowledged FROM COUNT}: adds keys one by one and prints each key after its
 *       add returned, for tests that kill the process in the middle;
 *   <li>{@code check FROM COUNT}: prints {@code ok}, or {@code missing KEY} for the first key
 *       reported absent;
 *   <li>{@code segments}: prints the segment count of a growing filter;
 *   <li>{@code clock MILLIS}: sets a windowed filter's clock; prints {@code clock};
 *   <li>{@code add-timed FROM COUNT}: adds keys one by one into a windowed filter; prints
 *       {@code adding EPOCH} before the first add and {@code added EPOCH} after the last, the
 *       file's current epoch then, so the parent can tell a rotation happened meanwhile;
 *   <li>{@code try-add FROM COUNT}: adds keys one by one into a windowed filter; prints
 *       {@code added EPOCH} (the file's current epoch then), or {@code refused MESSAGE} for an add
 *       refused with an IllegalStateException (a clock that disagrees with the file's).
 * </ul>
 * At the end of its input it closes the filter and exits 0.
 */
public final class SegmentedFilterWorker {
    private SegmentedFilterWorker() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Path file = Path.of(args[1]);
        boolean growing = args[0].equals("growing");
        int haltAt = growing ? 2 : 3;
        if (args.length > haltAt) {
            System.setProperty("bloomstore.test.halt-at", args[haltAt]);
        }
        TestClock clock = new TestClock(growing ? 0 : Long.parseLong(args[2]));
        try (MembershipFilter filter = growing
                ? GrowingBloomFilter.open(file, OpenMode.READ_WRITE)
                : WindowedBloomFilter.open(file, OpenMode.READ_WRITE, clock)) {
            out.println("ready");
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] words = line.split(" ");
                long from = words.length > 1 ? Long.parseLong(words[1]) : 0;
                long count = words.length > 2 ? Long.parseLong(words[2]) : 0;
                switch (words[0]) {
                    case "add" -> {
                        add(filter, from, count, Integer.parseInt(words[3]));
                        out.println("added");
                    }
                    case "add-acknowledged" -> {
                        for (long key = from; key < from + count; key++) {
                            filter.add(key);
                            out.println(key);
                        }
                    }
                    case "check" -> out.println(firstMissing(filter, from, count));
                    case "segments" -> out.println(((GrowingBloomFilter) filter).segmentCount());
                    case "clock" -> {
                        clock.set(from);
                        out.println("clock");
                    }
                    case "add-timed" -> {
                        out.println("adding " + ((WindowedBloomFilter) filter).currentEpoch());
                        add(filter, from, count, 1);
                        out.println("added " + ((WindowedBloomFilter) filter).currentEpoch());
                    }
                    case "try-add" -> {
                        try {
                            add(filter, from, count, 1);
                            out.println("added " + ((WindowedBloomFilter) filter).currentEpoch());
                        } catch (IllegalStateException refused) {
                            out.println("refused " + refused.getMessage());
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown command: " + line);
                }
            }
        }
    }

    private static void add(MembershipFilter filter, long from, long count, int batch) {
        long[] hashes = new long[batch];
        for (long key = from; key < from + count; key += batch) {
            int size = (int) Math.min(batch, from + count - key);
            for (int i = 0; i < size; i++) {
                hashes[i] = filter.hasher().hash(key + i);
            }
            filter.addHashes(hashes, size);
        }
    }

    /**
     * Sets a windowed file's clock (its owner's, as other processes read it: the offset word at
     * 176 from the system clock) to read {@code millis} now: as if that much time had passed, or
     * not, while nobody used the file. Every process but the owner rotates and forgets by it.
     */
    static void setFileClock(Path file, long millis) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer word = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            channel.write(word.putLong(0, millis - System.currentTimeMillis()), 176);
        }
    }

    /** "ok", or "missing KEY" for the first key of the range the filter reports absent. */
    static String firstMissing(MembershipFilter filter, long from, long count) {
        for (long key = from; key < from + count; key++) {
            if (!filter.mightContain(key)) {
                return "missing " + key;
            }
        }
        return "ok";
    }
}

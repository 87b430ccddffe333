package io.bloomstore.bench.macro;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import io.bloomstore.bench.ComparedFilter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import net.openhft.hashing.LongHashFunction;
import org.fastfilter.Filter;
import org.fastfilter.bloom.BlockedBloom;
import org.fastfilter.bloom.SizedBlooms;

/**
 * The plain programs a user would write with Guava or FastFilter_java instead of running
 * {@code bloomstore build}, {@code contains --from} and {@code dedup}: read the lines with a
 * {@link BufferedReader}, add or query each, write out what the command writes. Each is run as a
 * whole process, timed from outside (wall and CPU), by {@code bench/run-benchmarks.sh programs};
 * Guava's {@code build} is {@link MacroTask}'s {@code build-guava}.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.bloomstore.bench.macro.UserPrograms PROGRAM ARGS...
 *   fastfilter-build KEYS N            BlockedBloom.construct over the lines' hashes (it has no serial form: nothing written)
 *   guava-contains FILTER KEYS OUT     Guava readFrom, then "line\tpresent|absent" per line, as contains prints
 *   guava-dedup KEYS FILTER OUT N      put each line, print it if new, then writeTo FILTER, as dedup keeps its file
 *   fastfilter-dedup KEYS OUT N        mayContain, else add and print (no serial form: the filter is not kept)
 * </pre>
 *
 * Lines are Java strings here, as such programs have them; FastFilter takes long keys, so each line
 * is hashed to one with XXH3-64 over its chars (zero-allocation-hashing, the fast 64-bit hash a
 * FastFilter user would pick), at 10 bits per key (the whole number of bits for p = 1%).
 */
public final class UserPrograms {
    private static final LongHashFunction XXH3 = LongHashFunction.xx3();
    private static final int FASTFILTER_BITS_PER_KEY = 10;

    private UserPrograms() {
    }

    public static void main(String[] args) throws IOException {
        String[] a = Arrays.copyOfRange(args, 1, args.length);
        long lines = switch (args[0]) {
            case "fastfilter-build" -> fastFilterBuild(Path.of(a[0]), Integer.parseInt(a[1]));
            case "guava-contains" -> guavaContains(Path.of(a[0]), Path.of(a[1]), Path.of(a[2]));
            case "guava-dedup" -> guavaDedup(Path.of(a[0]), Path.of(a[1]), Path.of(a[2]), Long.parseLong(a[3]));
            case "fastfilter-dedup" -> fastFilterDedup(Path.of(a[0]), Path.of(a[1]), Integer.parseInt(a[2]));
            default -> throw new IllegalArgumentException("unknown program " + args[0]);
        };
        System.err.println(args[0] + ": " + lines + " lines");
    }

    private static long fastFilterBuild(Path keys, int n) throws IOException {
        long[] hashes = new long[n];
        int count = 0;
        try (BufferedReader reader = Files.newBufferedReader(keys, StandardCharsets.UTF_8)) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isEmpty()) {
                    if (count == hashes.length) {
                        hashes = Arrays.copyOf(hashes, 2 * count);
                    }
                    hashes[count++] = XXH3.hashChars(line);
                }
            }
        }
        Filter filter = BlockedBloom.construct(Arrays.copyOf(hashes, count), FASTFILTER_BITS_PER_KEY);
        requirePresent(filter.mayContain(hashes[0]));
        return count;
    }

    private static long guavaContains(Path filterFile, Path keys, Path out) throws IOException {
        BloomFilter<CharSequence> filter;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(filterFile))) {
            filter = BloomFilter.readFrom(in, Funnels.stringFunnel(StandardCharsets.UTF_8));
        }
        long lines = 0;
        try (BufferedReader reader = Files.newBufferedReader(keys, StandardCharsets.UTF_8);
                BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isEmpty()) {
                    writer.write(line);
                    writer.write(filter.mightContain(line) ? "\tpresent\n" : "\tabsent\n");
                    lines++;
                }
            }
        }
        return lines;
    }

    private static long guavaDedup(Path keys, Path filterFile, Path out, long n) throws IOException {
        BloomFilter<CharSequence> filter = BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), n, ComparedFilter.FPP);
        long lines = 0;
        try (BufferedReader reader = Files.newBufferedReader(keys, StandardCharsets.UTF_8);
                BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isEmpty()) {
                    if (filter.put(line)) {
                        writer.write(line);
                        writer.write('\n');
                    }
                    lines++;
                }
            }
        }
        try (OutputStream stream = new BufferedOutputStream(Files.newOutputStream(filterFile))) {
            filter.writeTo(stream);
        }
        return lines;
    }

    private static long fastFilterDedup(Path keys, Path out, int n) throws IOException {
        Filter filter = SizedBlooms.blocked(n, FASTFILTER_BITS_PER_KEY);
        long lines = 0;
        try (BufferedReader reader = Files.newBufferedReader(keys, StandardCharsets.UTF_8);
                BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isEmpty()) {
                    long hash = XXH3.hashChars(line);
                    if (!filter.mayContain(hash)) {
                        filter.add(hash);
                        writer.write(line);
                        writer.write('\n');
                    }
                    lines++;
                }
            }
        }
        return lines;
    }

    private static void requirePresent(boolean found) {
        if (!found) {
            throw new IllegalStateException("a key that was added is reported absent");
        }
    }
}

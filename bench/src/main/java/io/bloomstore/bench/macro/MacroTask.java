package io.bloomstore.bench.macro;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import io.bloomstore.bench.BenchFilter;
import io.bloomstore.bench.ComparedFilter;
import io.bloomstore.bench.Fixtures;
import io.bloomstore.bench.KeyType;
import io.bloomstore.bench.Keys;
import io.bloomstore.bench.MappedRegion;
import io.bloomstore.bench.BenchDirs;
import io.bloomstore.OpenMode;
import io.bloomstore.CreateOption;
import io.bloomstore.FilterBuilder;
import io.bloomstore.KeyHasher;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One side of one macro run, in a JVM of its own that {@link MacroBench} starts with the heap
 * it is measured under. It prints a single line {@code RESULT key=value ...} with its timings and
 * {@link ProcessMemory} figures, which the parent collects. Not meant to be run by hand.
 */
public final class MacroTask {
    private static final double NANOS_PER_MS = 1e6;
    private static final long GIB = 1L << 30;
    private static final int PROGRESS_SLICES = 20;

    private final Map<String, Object> result = new LinkedHashMap<>();

    private MacroTask() {
    }

    public static void main(String[] args) throws Exception {
        MacroTask task = new MacroTask();
        task.run(args[0], Arrays.copyOfRange(args, 1, args.length));
        task.result.putAll(ProcessMemory.snapshot());
        StringBuilder line = new StringBuilder("RESULT");
        task.result.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
        System.out.println(line);
    }

    private void run(String task, String[] a) throws Exception {
        switch (task) {
            case "prepare-open" -> prepareOpen(Path.of(a[0]), Path.of(a[1]), Long.parseLong(a[2]), Long.parseLong(a[3]));
            case "open-bloomstore" -> openBloomstore(Path.of(a[0]));
            case "open-guava" -> openGuava(Path.of(a[0]));
            case "key-file" -> KeyFile.ensure(Path.of(a[0]), Long.parseLong(a[1])); // run-benchmarks.sh build
            case "build-guava" -> buildGuava(Path.of(a[0]), Path.of(a[1]), Long.parseLong(a[2]));
            case "build-bloomstore" -> buildBloomstore(Path.of(a[0]), Path.of(a[1]), Long.parseLong(a[2]),
                    Layout.valueOf(a[3]), Integer.parseInt(a[4]));
            case "build-in-file" -> buildInFile(Path.of(a[0]), Path.of(a[1]), Long.parseLong(a[2]), Integer.parseInt(a[3]));
            case "prepare-merge" -> prepareMerge(Path.of(a[0]), Path.of(a[1]), Long.parseLong(a[2]));
            case "merge" -> merge(Path.of(a[0]), Path.of(a[1]), Path.of(a[2]));
            case "billion-bloomstore" -> billionBloomstore(Path.of(a[0]), Long.parseLong(a[1]),
                    ComparedFilter.valueOf(a[2]), Integer.parseInt(a[3]));
            case "billion-guava" -> billionGuava(Long.parseLong(a[0]));
            default -> throw new IllegalArgumentException("unknown task " + task);
        }
    }

    // ------------------------------------------------------------ open + first query

    /** The two same-size filters (n keys at 1%), holding the first {@code keys} long keys. */
    private void prepareOpen(Path bloomstoreFile, Path guavaFile, long n, long keys) throws IOException {
        for (ComparedFilter kind : List.of(ComparedFilter.STANDARD, ComparedFilter.GUAVA)) {
            Path target = kind == ComparedFilter.GUAVA ? guavaFile : bloomstoreFile;
            BenchFilter filter = kind.createEmpty(n, KeyType.LONG, target.resolveSibling(target.getFileName() + ".building"));
            Fixtures.addKeys(filter, KeyType.LONG, 0, keys, 2);
            filter.saveAndClose(target);
        }
        result.put("bloomstoreBytes", Files.size(bloomstoreFile));
        result.put("guavaBytes", Files.size(guavaFile));
    }

    private void openBloomstore(Path file) throws IOException {
        result.put("jvmUptimeBeforeMs", ManagementFactory.getRuntimeMXBean().getUptime());
        for (String key : List.of("firstMs", "againMs")) {
            long start = System.nanoTime();
            boolean found;
            try (io.bloomstore.BloomFilter filter = io.bloomstore.BloomFilter.open(file, OpenMode.READ_ONLY)) {
                found = filter.mightContain(Keys.longKey(0));
            }
            result.put(key, ms(System.nanoTime() - start));
            requireFound(found);
        }
    }

    private void openGuava(Path file) throws IOException {
        result.put("jvmUptimeBeforeMs", ManagementFactory.getRuntimeMXBean().getUptime());
        for (String key : List.of("firstMs", "againMs")) {
            long start = System.nanoTime();
            boolean found;
            try (InputStream in = new BufferedInputStream(new FileInputStream(file.toFile()))) {
                found = BloomFilter.readFrom(in, Funnels.longFunnel()).mightContain(Keys.longKey(0));
            }
            result.put(key, ms(System.nanoTime() - start));
            requireFound(found);
        }
    }

    // ------------------------------------------------------------ build from a key file

    /** The plain Guava program: BufferedReader, put each line, writeTo. */
    private void buildGuava(Path keyFile, Path out, long n) throws IOException {
        long start = System.nanoTime();
        BloomFilter<CharSequence> filter = BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), n, ComparedFilter.FPP);
        long lines = 0;
        try (BufferedReader reader = Files.newBufferedReader(keyFile, StandardCharsets.UTF_8)) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isEmpty()) {
                    filter.put(line);
                    lines++;
                }
            }
        }
        try (OutputStream stream = new BufferedOutputStream(new FileOutputStream(out.toFile()))) {
            filter.writeTo(stream);
        }
        result.put("buildMs", ms(System.nanoTime() - start));
        result.put("lines", lines);
        requireFound(filter.mightContain(hexKey(0)));
    }

    /**
     * bloomstore through its API: lines read as bytes ({@link KeyFile}), hashed with the filter's
     * hasher into batches of 1024, added with {@code addHashes}; one thread per part of the file.
     */
    private void buildBloomstore(Path keyFile, Path out, long n, Layout layout, int threads) throws Exception {
        long start = System.nanoTime();
        BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(ComparedFilter.FPP).layout(layout).build();
        long lines = 0;
        try (io.bloomstore.BloomFilter filter = io.bloomstore.BloomFilter.create(out, spec, CreateOption.REPLACE_EXISTING);
                FileChannel channel = FileChannel.open(keyFile, StandardOpenOption.READ)) {
            long[] cuts = KeyFile.split(channel, threads);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Long>> parts = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long from = cuts[t];
                    long to = cuts[t + 1];
                    parts.add(pool.submit(() -> {
                        HashBatches batches = new HashBatches(filter);
                        long read = KeyFile.forEachLine(channel, from, to, batches);
                        batches.flush();
                        return read;
                    }));
                }
                for (Future<Long> part : parts) {
                    lines += part.get();
                }
            } finally {
                pool.shutdownNow();
            }
            requireFound(filter.mightContain(hexKey(0)));
        }
        result.put("buildMs", ms(System.nanoTime() - start));
        result.put("lines", lines);
    }

    /**
     * What {@code bloomstore build --cells C --hashes K} does, filling the mapped file instead of
     * memory ({@link FilterBuilder#inMemory}): the other side of run-benchmarks.sh writeback.
     */
    private void buildInFile(Path keyFile, Path out, long cells, int hashes) throws IOException {
        long start = System.nanoTime();
        FilterBuilder.Built built = FilterBuilder.to(out).spec(BloomSpec.builder().cells(cells).hashes(hashes).build())
                .inMemory(false).fromLines(keyFile);
        result.put("buildMs", ms(System.nanoTime() - start));
        result.put("lines", built.keys());
    }

    /** Hashes lines into a batch and adds each full batch with one call. */
    private static final class HashBatches implements KeyFile.LineSink {
        private final io.bloomstore.BloomFilter filter;
        private final KeyHasher hasher;
        private final long[] hashes = new long[1024];
        private int count;

        HashBatches(io.bloomstore.BloomFilter filter) {
            this.filter = filter;
            this.hasher = filter.hasher();
        }

        @Override
        public void line(byte[] bytes, int offset, int length) {
            hashes[count++] = hasher.hash(bytes, offset, length);
            if (count == hashes.length) {
                flush();
            }
        }

        void flush() {
            filter.addHashes(hashes, count);
            count = 0;
        }
    }

    private static String hexKey(long index) {
        byte[] line = new byte[16];
        Keys.hexLine(index, line, 0);
        return new String(line, StandardCharsets.US_ASCII);
    }

    // ------------------------------------------------------------ OR-merge against copy bandwidth

    /**
     * Two compatible filters of {@code cells} 1-bit cells whose words are random: every bit set
     * with probability 1/2, the fill of a filter at its design capacity. (Adding the ~900 M keys
     * that fill a 1 GiB filter would take many minutes; OR costs the same for any content.) The
     * random words are written through the file, into the cells that end it (docs/FORMAT.md), so
     * the fixture needs nothing beyond the public API and the format.
     */
    private void prepareMerge(Path a, Path b, long cells) throws IOException {
        BloomSpec spec = BloomSpec.builder().cells(cells).hashes(7).build();
        SplittableRandom random = new SplittableRandom(42);
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (Path file : List.of(a, b)) {
            Path building = file.resolveSibling(file.getFileName() + ".building");
            io.bloomstore.BloomFilter.create(building, spec, CreateOption.REPLACE_EXISTING).close();
            try (FileChannel channel = FileChannel.open(building, StandardOpenOption.WRITE)) {
                long end = channel.size();
                for (long at = end - spec.cellBytes(); at < end; at += chunk.capacity()) {
                    chunk.clear();
                    while (chunk.hasRemaining()) {
                        chunk.putLong(random.nextLong());
                    }
                    chunk.flip().limit((int) Math.min(chunk.capacity(), end - at));
                    while (chunk.hasRemaining()) {
                        channel.write(chunk, at + chunk.position());
                    }
                }
                channel.force(true);
            }
            Files.move(building, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        result.put("cellBytes", spec.cellBytes());
    }

    /**
     * In one JVM, side by side: the copy probe (mapped 1 GiB onto mapped 1 GiB, the same code as
     * the JMH limit), a write + fsync of 1 GiB (the disk's share of a durable new file), then
     * Merge.toNewFile and Merge.inPlace of the two inputs. Rates are GiB of filter output per second.
     */
    private void merge(Path a, Path b, Path scratch) throws IOException {
        long cellBytes;
        try (io.bloomstore.BloomFilter input = io.bloomstore.BloomFilter.open(a, OpenMode.READ_ONLY)) {
            cellBytes = input.spec().cellBytes();
        }
        result.put("cellGiB", String.format(Locale.ROOT, "%.3f", (double) cellBytes / GIB));

        MappedRegion source = MappedRegion.ofRandomFile(BenchDirs.fixtures().resolve("random-" + GIB + ".bin"), GIB);
        MappedRegion target = MappedRegion.ofRandomFile(BenchDirs.fixtures().resolve("copy-target-" + GIB + ".bin"), GIB);
        source.copyTo(target); // warm-up: page faults, JIT
        double[] copies = new double[3];
        for (int i = 0; i < copies.length; i++) {
            long start = System.nanoTime();
            source.copyTo(target);
            copies[i] = gibPerSecond(GIB, System.nanoTime() - start);
        }
        Arrays.sort(copies);
        result.put("copyGiBps", rate(copies[1]));
        ByteBuffer anonymous = ByteBuffer.allocateDirect((int) GIB);
        source.copyTo(anonymous);
        long anonymousStart = System.nanoTime();
        source.copyTo(anonymous);
        result.put("copyAnonymousGiBps", rate(gibPerSecond(GIB, System.nanoTime() - anonymousStart)));

        Path written = scratch.resolve("write-probe.bin");
        result.put("writeForceGiBps", rate(gibPerSecond(GIB, writeAndForce(written, GIB))));
        Files.deleteIfExists(written);

        Path out = scratch.resolve("merged.bloom");
        for (int run = 1; run <= 2; run++) {
            long start = System.nanoTime();
            Merge.toNewFile(out, List.of(a, b), MergeOp.OR, CreateOption.REPLACE_EXISTING);
            result.put("toNewFileGiBps" + run, rate(gibPerSecond(cellBytes, System.nanoTime() - start)));
        }
        Files.deleteIfExists(out);

        Path inPlace = scratch.resolve("in-place.bloom");
        Files.copy(a, inPlace, StandardCopyOption.REPLACE_EXISTING);
        try (io.bloomstore.BloomFilter into = io.bloomstore.BloomFilter.open(inPlace, OpenMode.READ_WRITE);
                io.bloomstore.BloomFilter from = io.bloomstore.BloomFilter.open(b, OpenMode.READ_ONLY)) {
            long start = System.nanoTime();
            Merge.inPlace(into, from, MergeOp.OR, null);
            long merged = System.nanoTime();
            into.sync();
            long synced = System.nanoTime();
            result.put("inPlaceGiBps", rate(gibPerSecond(cellBytes, merged - start)));
            result.put("inPlaceSyncedGiBps", rate(gibPerSecond(cellBytes, synced - start)));
        }
        Files.deleteIfExists(inPlace);
    }

    private static long writeAndForce(Path file, long bytes) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        long start = System.nanoTime();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long written = 0; written < bytes; ) {
                chunk.clear();
                written += channel.write(chunk);
            }
            channel.force(true);
        }
        return System.nanoTime() - start;
    }

    // ------------------------------------------------------------ a billion keys in a small heap

    private void billionBloomstore(Path out, long keys, ComparedFilter kind, int threads) throws IOException {
        long start = System.nanoTime();
        BenchFilter filter = kind.createEmpty(keys, KeyType.LONG, out);
        // In slices, to print progress: at a few hundred thousand keys/s this takes an hour.
        int slices = keys % (PROGRESS_SLICES * 1000L) == 0 ? PROGRESS_SLICES : 1;
        try {
            for (int slice = 0; slice < slices; slice++) {
                long count = keys / slices;
                Fixtures.addKeys(filter, KeyType.LONG, slice * count, count, threads);
                double seconds = (System.nanoTime() - start) / 1e9;
                System.err.printf(Locale.ROOT, "  %,d keys added in %.0f s (%.0f keys/s)%n", (slice + 1) * count, seconds,
                        (slice + 1) * count / seconds);
            }
        } finally {
            filter.close();
        }
        long nanos = System.nanoTime() - start;
        result.put("buildMs", ms(nanos));
        result.put("keysPerSecond", String.format(Locale.ROOT, "%.0f", keys / (nanos / 1e9)));
        result.put("fileBytes", Files.size(out));
        try (io.bloomstore.BloomFilter check = io.bloomstore.BloomFilter.open(out, OpenMode.READ_ONLY)) {
            requireFound(check.mightContain(Keys.longKey(0)) && check.mightContain(Keys.longKey(keys - 1)));
        }
    }

    /** Guava in the same heap: its bit array is one long[] on the heap, so creation alone must fail. */
    private void billionGuava(long keys) {
        long start = System.nanoTime();
        try {
            BloomFilter.create(Funnels.longFunnel(), keys, ComparedFilter.FPP);
            result.put("outcome", "created");
        } catch (OutOfMemoryError e) {
            result.put("outcome", "OutOfMemoryError");
        }
        result.put("elapsedMs", ms(System.nanoTime() - start));
    }

    // ------------------------------------------------------------ helpers

    private static void requireFound(boolean found) {
        if (!found) {
            throw new IllegalStateException("a key that was added is reported absent");
        }
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / NANOS_PER_MS);
    }

    private static double gibPerSecond(long bytes, long nanos) {
        return (double) bytes / GIB / (nanos / 1e9);
    }

    private static String rate(double gibPerSecond) {
        return String.format(Locale.ROOT, "%.3f", gibPerSecond);
    }
}

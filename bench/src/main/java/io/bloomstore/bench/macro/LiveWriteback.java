package io.bloomstore.bench.macro;

import io.bloomstore.BloomFilter;
import io.bloomstore.Checkpoint;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A live filter as a service keeps it: keys added at a steady rate for minutes, made durable at a
 * fixed interval. Two ways, one per run: {@code sync} adds into a filter mapped from a file on disk
 * and calls {@code sync()} at each interval; {@code checkpoint} adds into a filter in
 * {@code /dev/shm} and calls {@link Checkpoint#write} to a copy on disk at each interval. Between
 * intervals the kernel may write the mapped file's dirty pages back on its own (30 s old, reclaim)
 * and, after each later add to them, again; the checkpoint side has nothing to write back but the
 * copy. Both get the same keys at the same times, so the pages an interval changes are the same:
 * the checkpoint side counts them.
 *
 * <pre>
 *   LiveWriteback sync|checkpoint FILTER COPY KEYS_PER_SECOND SECONDS_PER_INTERVAL INTERVALS DEVICE
 * </pre>
 *
 * FILTER must exist (a new, empty filter of the shape to measure); COPY is used by checkpoint only
 * (created by the first checkpoint, before the clock starts). DEVICE names the block device under
 * {@code /sys/block} whose sectors written bracket the run. Prints one RESULT line.
 */
public final class LiveWriteback {
    private static final int SECTOR = 512;

    private LiveWriteback() {
    }

    public static void main(String[] args) throws Exception {
        boolean checkpoint = args[0].equals("checkpoint");
        Path filter = Path.of(args[1]);
        Path copy = Path.of(args[2]);
        int keysPerSecond = Integer.parseInt(args[3]);
        int secondsPerInterval = Integer.parseInt(args[4]);
        int intervals = Integer.parseInt(args[5]);
        Path deviceStat = Path.of("/sys/block", args[6], "stat");
        if (checkpoint) {
            Checkpoint.write(filter, copy); // the first copy is written whole, before the measurement
        }
        long pagesChanged = 0;
        long key = 0;
        long writeBytesBefore = writeBytes();
        long sectorsBefore = sectorsWritten(deviceStat);
        long start = System.nanoTime();
        try (BloomFilter live = BloomFilter.open(filter, OpenMode.READ_WRITE)) {
            for (int interval = 0; interval < intervals; interval++) {
                for (int second = 0; second < secondsPerInterval; second++) {
                    long due = start + ((long) interval * secondsPerInterval + second + 1) * 1_000_000_000L;
                    for (int i = 0; i < keysPerSecond; i++) {
                        live.add(key++);
                    }
                    Thread.sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000));
                }
                if (checkpoint) {
                    pagesChanged += Checkpoint.write(filter, copy).pagesWritten();
                } else {
                    live.sync();
                }
            }
        }
        long writeBytes = writeBytes() - writeBytesBefore;
        long device = (sectorsWritten(deviceStat) - sectorsBefore) * SECTOR;
        System.out.printf("RESULT mode=%s keys=%d seconds=%.1f writeBytes=%d deviceBytes=%d pagesChanged=%d%n",
                args[0], key, (System.nanoTime() - start) / 1e9, writeBytes, device, pagesChanged);
    }

    /** The bytes this process caused to be written to storage, as {@code /proc/self/io} counts them. */
    private static long writeBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
            if (line.startsWith("write_bytes:")) {
                return Long.parseLong(line.substring("write_bytes:".length()).trim());
            }
        }
        throw new IOException("no write_bytes in /proc/self/io");
    }

    /** Sectors written to the device since boot: field 7 of its stat line, by every process. */
    private static long sectorsWritten(Path stat) throws IOException {
        List<String> fields = List.of(Files.readString(stat).trim().split("\\s+"));
        return Long.parseLong(fields.get(6));
    }
}

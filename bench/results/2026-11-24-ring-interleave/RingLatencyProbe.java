import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Standalone latency probe for the ring's interleave granularity (docs/FORMAT.md, "Windowed files:
 * format version 4"). One mapped file of about 700 MB, cells random with half the bits set; a
 * dependent chain of queries (the next key's hash depends on every word the previous query read),
 * each query reading one word of its key's 64-byte block in each of the ring's R = L + 1 = 9 slots
 * (an absent key in the blocked layout stops at the first zero bit in each slot, usually in that
 * word), for four placements of the slots' blocks:
 *   separate  : slot j is its own region of S bytes, regions one after another (version 2)
 *   page      : slot j's page p at physical page p * R + j
 *   block     : slot j's block b at physical block b * R + j
 *   skewed    : as page, but slot j's line within the page rotated by j lines (offset + 64 j mod 4096)
 *   one       : a single region of S bytes, one read per query (a fixed filter of the slot's size)
 * Prints wall and thread-CPU ns per query, per layout, for several rounds, layouts interleaved.
 *   java RingLatencyProbe.java FILE [queries] [rounds]
 */
public class RingLatencyProbe {
    static final int R = 9;
    static final long SLOT_BYTES = 700L * 1024 * 1024 / R / 4096 * 4096; // whole pages
    static final long BLOCKS = SLOT_BYTES / 64;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int queries = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        long length = SLOT_BYTES * R;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(length);
            FileChannel channel = raf.getChannel();
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
            map.order(ByteOrder.nativeOrder());
            long x = 0x9E3779B97F4A7C15L;
            for (long i = 0; i < length; i += 8) {
                x = mix(x + i);
                map.putLong((int) i, x);
            }
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            String[] names = {"separate", "page", "block", "skewed", "one"};
            System.out.printf("file %d bytes, slot %d bytes, R = %d, %d queries a run%n", length, SLOT_BYTES, R, queries);
            System.out.println("round,layout,wall_ns_per_query,cpu_ns_per_query");
            long sink = 0;
            for (int round = 0; round < rounds; round++) {
                for (int layout = 0; layout < names.length; layout++) {
                    sink += run(map, layout, queries / 10, 1); // warm-up
                    long cpu0 = threads.getCurrentThreadCpuTime();
                    long wall0 = System.nanoTime();
                    sink += run(map, layout, queries, round + 2);
                    long wall = System.nanoTime() - wall0;
                    long cpu = threads.getCurrentThreadCpuTime() - cpu0;
                    System.out.printf("%d,%s,%.1f,%.1f%n", round, names[layout], (double) wall / queries, (double) cpu / queries);
                }
            }
            System.out.println("# sink " + sink);
        }
        Files.deleteIfExists(file);
    }

    static long run(MappedByteBuffer map, int layout, int queries, long seed) {
        long h = mix(seed);
        for (int q = 0; q < queries; q++) {
            long b = Math.multiplyHigh(h >>> 1, BLOCKS << 1) ; // fastrange(h, BLOCKS), h >>> 1 keeps the product positive
            int word = (int) (mix(h) >>> 61); // which of the block's 8 words the first probe reads
            long sum = 0;
            switch (layout) {
                case 0:
                    for (int j = 0; j < R; j++) {
                        sum += map.getLong((int) (j * SLOT_BYTES + b * 64 + word * 8));
                    }
                    break;
                case 1: {
                    long page = b >>> 6;
                    long inPage = (b & 63) * 64 + word * 8;
                    for (int j = 0; j < R; j++) {
                        sum += map.getLong((int) ((page * R + j) * 4096 + inPage));
                    }
                    break;
                }
                case 2:
                    for (int j = 0; j < R; j++) {
                        sum += map.getLong((int) ((b * R + j) * 64 + word * 8));
                    }
                    break;
                case 3: {
                    long page = b >>> 6;
                    long inPage = (b & 63) * 64 + word * 8;
                    for (int j = 0; j < R; j++) {
                        sum += map.getLong((int) ((page * R + j) * 4096 + ((inPage + j * 64) & 4095)));
                    }
                    break;
                }
                default:
                    sum += map.getLong((int) (b * 64 + word * 8));
            }
            h = mix(h + sum);
        }
        return h;
    }

    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}

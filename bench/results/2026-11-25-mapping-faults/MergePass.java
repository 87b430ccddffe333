/** usage: java <fork flags> -cp <store-core classes and dependencies>:. MergePass CELLS: an in-place merge healthy, then into the same file truncated to its header page, timed. */
import io.bloomstore.*;
import java.nio.channels.FileChannel;
import java.nio.file.*;

public class MergePass {
    public static void main(String[] a) throws Exception {
        Path dir = Files.createTempDirectory("mp");
        BloomSpec spec = BloomSpec.builder().cells(Long.parseLong(a[0])).hashes(3).build();
        Path t = dir.resolve("t.bloom"), s = dir.resolve("s.bloom");
        BloomFilter.create(s, spec).close();
        try (BloomFilter target = BloomFilter.create(t, spec); BloomFilter source = BloomFilter.open(s, OpenMode.READ_ONLY)) {
            for (int i = 0; i < 50; i++) Merge.inPlace(target, source, MergeOp.OR, null);
            long t0 = System.nanoTime();
            Merge.inPlace(target, source, MergeOp.OR, null);
            System.out.printf("healthy merge: %.3f s%n", (System.nanoTime() - t0) / 1e9);
            try (FileChannel c = FileChannel.open(t, StandardOpenOption.WRITE)) { c.truncate(4096); }
            t0 = System.nanoTime();
            try {
                Merge.inPlace(target, source, MergeOp.OR, null);
                System.out.printf("truncated merge ended without error: %.3f s%n", (System.nanoTime() - t0) / 1e9);
            } catch (InternalError e) {
                System.out.printf("truncated merge: %s after %.3f s%n", e.getMessage(), (System.nanoTime() - t0) / 1e9);
            }
        }
    }
}

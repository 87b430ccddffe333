package io.bloomstore.reliability;

import io.bloomstore.filter.BloomFilter;
import io.bloomstore.spec.BloomSpec;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Child of {@link CrashRecoveryTest}: creates a large filter (cells allocated by writing zeros, then
 * forced to disk), so the parent can kill it in the middle of the create.
 *
 * <p>Arguments: {@code FILE CELLS}. Prints {@code creating} just before the create and
 * {@code created} after it.
 */
public final class FilterCreator {
    private FilterCreator() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long cells = Long.parseLong(args[1]);
        PrintWriter out = new PrintWriter(System.out, false);
        out.println("creating");
        ChildJvm.checkPrinted(out);
        BloomFilter.create(file, BloomSpec.builder().cells(cells).hashes(7).build()).close();
        out.println("created");
        ChildJvm.checkPrinted(out);
    }
}

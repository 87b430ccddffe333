package io.bloomstore.flags;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.CreateOption;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM's main: creates a sparse filter of {@code args[1]} one-bit cells at {@code args[0]},
 * adds and finds a key, and prints "created LENGTH" or "refused: MESSAGE" on stdout.
 */
public final class SparseCreator {
    private SparseCreator() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        BloomSpec spec = BloomSpec.builder().cells(Long.parseLong(args[1])).hashes(3).build();
        try (BloomFilter filter = BloomFilter.create(file, spec, CreateOption.SPARSE)) {
            filter.add("key");
            System.out.println(filter.mightContain("key") ? "created " + Files.size(file) : "lost the key");
        } catch (IllegalStateException refused) {
            System.out.println("refused: " + refused.getMessage());
        }
    }
}

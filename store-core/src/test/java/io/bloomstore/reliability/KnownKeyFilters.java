package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import io.bloomstore.Pack;
import io.bloomstore.BloomSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;

/** Filter files with known keys, their packs, and the check that a file holds its keys. */
final class KnownKeyFilters {
    private KnownKeyFilters() {
    }

    /** Creates {@code file} with {@code spec} holding the keys {@code first .. first+count}. */
    static Path withKeys(Path file, BloomSpec spec, long first, long count) throws IOException {
        try (BloomFilter filter = BloomFilter.create(file, spec)) {
            for (long key = first; key < first + count; key++) {
                filter.add(key);
            }
        }
        return file;
    }

    /** The pack of {@code file}, in memory. */
    static byte[] pack(Path file) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Pack.pack(file, out);
        return out.toByteArray();
    }

    /** Fails unless {@code file} opens clean and may contain every key of {@code first .. first+count}. */
    static void assertHolds(Path file, long first, long count) throws IOException {
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            for (long key = first; key < first + count; key++) {
                if (!filter.mightContain(key)) {
                    fail(file.getFileName() + " lacks key " + key);
                }
            }
        }
    }
}

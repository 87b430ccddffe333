package io.bloomstore.cli;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Opening filter files and naming key counts, the way every verb does it. */
final class Filters {
    private Filters() {
    }

    /** Opens {@code file}; a missing file gets a message saying how to make one. */
    static BloomFilter open(Path file, OpenMode mode) throws IOException {
        try {
            return BloomFilter.open(file, mode);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null,
                    "no such filter file; make one with 'bloomstore create' or 'bloomstore build'");
        }
    }

    /** "3 keys" / "1 key". */
    static String keys(long n) {
        return Human.count(n) + (n == 1 ? " key" : " keys");
    }
}

package io.bloomstore.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What a directory holds, for the "nothing left behind" checks. */
final class Directories {
    private Directories() {
    }

    /** The names of the entries of {@code dir} (hidden ones included: temporary files start with a dot), sorted. */
    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }
}

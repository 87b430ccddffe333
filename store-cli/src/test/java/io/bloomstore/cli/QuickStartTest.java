package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which runs {@link QuickStart} spares the memory layer's start: a contains of a fixed filter with
 * few keys, all on the command line, and no other run (the start-up cost behind it:
 * docs/BENCHMARKS.md, "CLI start-up").
 */
class QuickStartTest {
    @TempDir
    Path dir;

    private static boolean mapsNoFile(String... args) {
        return QuickStart.mapsNoFile(args);
    }

    private static String[] containsWithKeys(String file, int keys) {
        List<String> args = new ArrayList<>(List.of("contains", file));
        args.addAll(Collections.nCopies(keys, "k"));
        return args.toArray(String[]::new);
    }

    @Test
    void aContainsOfFewKeysOnTheCommandLineMapsNothing() throws IOException {
        String fixed = dir.resolve("f.bloom").toString();
        BloomFilter.create(Path.of(fixed), BloomSpec.forExpected(100, 0.01)).close();
        assertTrue(mapsNoFile("contains", fixed, "k"));
        assertTrue(mapsNoFile("contains", "-q", fixed, "--print", "absent", "k", "--", "-k"));
        assertTrue(mapsNoFile(containsWithKeys(fixed, ContainsCommand.UNMAPPED_KEYS)));
        assertFalse(mapsNoFile(containsWithKeys(fixed, ContainsCommand.UNMAPPED_KEYS + 1)), "too many keys");
        assertFalse(mapsNoFile("contains", fixed, "k", "--from", "keys.txt"));
        assertFalse(mapsNoFile("contains", fixed, "--from=-"));
        assertFalse(mapsNoFile("count", fixed, "k"));
        assertFalse(mapsNoFile("add", fixed, "k"));
        assertFalse(mapsNoFile("--progress", "never", "contains", fixed, "k"), "an option before the verb: unclear");
        assertFalse(mapsNoFile());
    }

    @Test
    void aContainsOfAGrowingFileStartsTheMemoryLayerForItsMapping() throws IOException {
        Path growing = dir.resolve("g.bloom");
        GrowingBloomFilter.create(growing, GrowingSpec.of(100, 0.01)).close();
        assertFalse(mapsNoFile("contains", growing.toString(), "k"));
    }
}

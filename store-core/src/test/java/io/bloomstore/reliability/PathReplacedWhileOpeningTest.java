package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.BloomSpec;
import io.bloomstore.testing.RenameSwapper;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A handle is bound to the file it checked, whatever is renamed over its path meanwhile: the
 * header check, the mapping and {@code sync()} all go through one descriptor. Before, open read
 * the header through one descriptor and mapped the path anew, so a replacement renamed in between
 * was mapped with the old header's shape and grown to the old length (docs/RELIABILITY.md, findings
 * 1 and 6).
 */
class PathReplacedWhileOpeningTest {
    private static final BloomSpec SMALL = BloomSpec.builder().cells(1 << 12).hashes(3).build();
    private static final BloomSpec LARGE = BloomSpec.builder().cells(1 << 20).hashes(5).build();
    private static final int OPENS = 3_000;

    @TempDir
    Path dir;

    @Test
    void opensRacingRenamesOverThePathSeeOneWholeFileAndGrowNone() throws Exception {
        Path small = KnownKeyFilters.withKeys(dir.resolve("small.bloom"), SMALL, 0, 100);
        Path large = KnownKeyFilters.withKeys(dir.resolve("large.bloom"), LARGE, 1_000, 100);
        long smallLength = Files.size(small);
        long largeLength = Files.size(large);
        Path path = dir.resolve("shared.bloom");
        Files.createLink(path, small);

        RenameSwapper renamer = new RenameSwapper(path, List.of(large, small));
        int sawSmall = 0;
        int sawLarge = 0;
        long renames;
        try {
            for (int i = 0; i < OPENS; i++) {
                try (BloomFilter filter = BloomFilter.open(path, i % 2 == 0 ? OpenMode.READ_WRITE : OpenMode.READ_ONLY)) {
                    // The shape the handle reports and the keys it finds must be those of one file.
                    if (filter.spec().equals(SMALL)) {
                        sawSmall++;
                        assertTrue(filter.mightContain(0L) && filter.mightContain(99L));
                    } else {
                        sawLarge++;
                        assertEquals(LARGE, filter.spec());
                        assertTrue(filter.mightContain(1_000L) && filter.mightContain(1_099L));
                    }
                } catch (NoSuchFileException e) {
                    // renamed away between the check and the open: refused, never mismapped
                }
            }
        } finally {
            renames = renamer.stop();
        }
        assertEquals(smallLength, Files.size(small), "the small filter was never grown");
        assertEquals(largeLength, Files.size(large));
        KnownKeyFilters.assertHolds(small, 0, 100);
        KnownKeyFilters.assertHolds(large, 1_000, 100);
        assertTrue(renames > 0 && sawSmall > 0 && sawLarge > 0,
                "the race ran: " + renames + " renames, " + sawSmall + " small and " + sawLarge + " large opens");
    }

    @Test
    void syncForcesTheMappedFileAfterThePathWasReplacedOrDeleted() throws Exception {
        Path path = KnownKeyFilters.withKeys(dir.resolve("f.bloom"), SMALL, 0, 10);
        try (BloomFilter filter = BloomFilter.open(path, OpenMode.READ_WRITE)) {
            Path other = KnownKeyFilters.withKeys(dir.resolve("other.bloom"), LARGE, 0, 1);
            Files.move(other, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            filter.add(42L);
            filter.sync();
            Files.delete(path);
            filter.add(43L);
            filter.sync(); // formerly NoSuchFileException: sync opened the path anew
            assertTrue(filter.mightContain(42L) && filter.mightContain(43L));
        }
        assertFalse(Files.exists(path));
    }
}

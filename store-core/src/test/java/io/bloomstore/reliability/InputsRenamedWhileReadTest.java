package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomierMap;
import io.bloomstore.BloomSpec;
import io.bloomstore.FilterKind;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.MembershipFilter;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import io.bloomstore.StoredFile;
import io.bloomstore.testing.RenameSwapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's side of "every input bound to one descriptor", many rounds a second: while a
 * {@link RenameSwapper} renames other files over an input, {@link MembershipFilter#open},
 * {@link StoredFile#open} (a Bloomier map among the files),
 * {@link Merge#toNewFile} and {@link Pack#pack} each see one whole file — the one they checked is
 * the one they map, merge or copy — or refuse it. (InputsSwappedByRenameIT in store-cli does the
 * same through the jar, a JVM a round.)
 */
class InputsRenamedWhileReadTest {
    private static final BloomSpec SPEC = BloomSpec.forExpected(2_000, 0.01);
    private static final BloomSpec SMALL = BloomSpec.forExpected(200, 0.01);
    private static final int ROUNDS = 400;
    /** Fewer: each merge publishes a file, forced to the disk with its folder. */
    private static final int MERGES = 200;

    @TempDir
    Path dir;
    private Path a;
    private Path b;
    private Path otherSeed;
    private Path small;
    private Path growing;

    @BeforeEach
    void makeFiles() throws IOException {
        a = KnownKeyFilters.withKeys(dir.resolve("a.bloom"), SPEC, 0, 1_500);
        b = KnownKeyFilters.withKeys(dir.resolve("b.bloom"), SPEC, 500, 1_500);
        otherSeed = KnownKeyFilters.withKeys(dir.resolve("other-seed.bloom"), BloomSpec.builder().expectedKeys(2_000).fpp(0.01)
                .seed(7).build(), 500, 1_500);
        small = KnownKeyFilters.withKeys(dir.resolve("small.bloom"), SMALL, 500, 200);
        growing = dir.resolve("growing.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(growing, GrowingSpec.of(100, 0.01))) {
            for (long key = 0; key < 300; key++) {
                filter.add(key);
            }
        }
    }

    @Test
    void openingAFileOfAnyKindMapsTheFileWhoseKindItRead() throws Exception {
        Path path = dir.resolve("input.bloom");
        Map<String, Integer> seen = new TreeMap<>();
        long renames;
        try (RenameSwapper swapper = new RenameSwapper(path, List.of(a, small, growing))) {
            for (int round = 0; round < ROUNDS; round++) {
                try (MembershipFilter filter = MembershipFilter.open(path, OpenMode.READ_ONLY, Clock.systemUTC())) {
                    String which;
                    if (filter instanceof GrowingBloomFilter chain) {
                        which = "growing";
                        assertEquals(Files.size(growing), chain.fileBytes());
                        assertTrue(chain.mightContain(0L) && chain.mightContain(299L));
                    } else {
                        BloomFilter fixed = (BloomFilter) filter;
                        which = fixed.spec().equals(SPEC) ? "a" : "small";
                        assertEquals(which.equals("a") ? SPEC : SMALL, fixed.spec());
                        assertTrue(which.equals("a") ? fixed.mightContain(0L) && fixed.mightContain(1_499L)
                                : fixed.mightContain(500L) && fixed.mightContain(699L), which + " holds its keys");
                    }
                    seen.merge(which, 1, Integer::sum);
                }
            }
            renames = swapper.stop();
        }
        assertEquals(3, seen.size(), "every file was seen: " + seen + " in " + renames + " renames");
    }

    @Test
    void openingAnyStoredFileOpensTheFileWhoseKindItRead() throws Exception {
        Path map = dir.resolve("values.map");
        try (BloomierMap.Builder builder = BloomierMap.builder(map, 8)) {
            for (long key = 0; key < 1_000; key++) {
                builder.put(key, key % 200);
            }
            builder.build();
        }
        Path path = dir.resolve("input.bloom");
        Map<String, Integer> seen = new TreeMap<>();
        long renames;
        try (RenameSwapper swapper = new RenameSwapper(path, List.of(a, map, growing))) {
            for (int round = 0; round < ROUNDS; round++) {
                try (StoredFile file = StoredFile.open(path)) {
                    String which = file.match(filter -> {
                        long last = filter.kind() == FilterKind.GROWING ? 299L : 1_499L;
                        assertTrue(filter.mightContain(0L) && filter.mightContain(last), filter.kind() + " holds its keys");
                        return filter.kind().toString();
                    }, valued -> {
                        throw new AssertionError("no valued filter among the inputs: " + valued);
                    }, values -> {
                        assertEquals(7, values.get(7L));
                        return "map";
                    });
                    assertEquals(Files.size(which.equals("map") ? map : which.equals("growing") ? growing : a), file.fileBytes(),
                            "the size of the file whose kind was read");
                    seen.merge(which, 1, Integer::sum);
                }
            }
            renames = swapper.stop();
        }
        assertEquals(Set.of("fixed", "growing", "map"), seen.keySet(), "every file was seen: " + seen + " in " + renames + " renames");
    }

    @Test
    void aMergeMergesTheInputsItCheckedOrRefusesThem() throws Exception {
        Path reference = dir.resolve("reference.bloom");
        Merge.toNewFile(reference, List.of(a, b), MergeOp.AND);
        byte[] expectedCells = cells(reference);
        Path second = dir.resolve("second.bloom");
        Map<String, Integer> seen = new TreeMap<>();
        try (RenameSwapper swapper = new RenameSwapper(second, List.of(b, otherSeed, small, growing))) {
            for (int round = 0; round < MERGES; round++) {
                Path out = dir.resolve("out-" + round + ".bloom");
                try {
                    Merge.toNewFile(out, List.of(a, second), MergeOp.AND);
                    assertArrayEquals(expectedCells, cells(out), "round " + round + ": the AND of a and b, or nothing");
                    seen.merge("merged", 1, Integer::sum);
                } catch (InvalidFilterFileException refused) {
                    assertEquals(Problem.INCOMPATIBLE, refused.problem(), refused.getMessage());
                    assertTrue(!Files.exists(out), "a refused merge writes nothing");
                    seen.merge("refused", 1, Integer::sum);
                }
                Files.deleteIfExists(out);
            }
            swapper.stop();
        }
        assertEquals(2, seen.size(), "merged and refused both: " + seen);
    }

    @Test
    void aPackHoldsOneWholeFile() throws Exception {
        Path path = dir.resolve("input.bloom");
        List<Path> files = List.of(a, small, growing);
        Map<String, Integer> seen = new TreeMap<>();
        try (RenameSwapper swapper = new RenameSwapper(path, files)) {
            for (int round = 0; round < ROUNDS; round++) {
                ByteArrayOutputStream pack = new ByteArrayOutputStream();
                Pack.pack(path, pack);
                Path restored = dir.resolve("restored-" + round + ".bloom");
                Pack.unpack(new ByteArrayInputStream(pack.toByteArray()), "pack", restored);
                byte[] bytes = Files.readAllBytes(restored);
                String which = null;
                for (Path file : files) {
                    if (Arrays.equals(bytes, Files.readAllBytes(file))) {
                        which = file.getFileName().toString();
                    }
                }
                if (which == null) {
                    fail("round " + round + ": the pack restores to none of the files (" + bytes.length + " bytes)");
                }
                seen.merge(which, 1, Integer::sum);
                Files.delete(restored);
            }
            swapper.stop();
        }
        assertEquals(3, seen.size(), "every file was packed: " + seen);
    }

    /** The cells of a fixed filter file: what a merge's result is judged by (its header holds a creation time). */
    private static byte[] cells(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return Arrays.copyOfRange(bytes, 4096, bytes.length);
    }
}

package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.CreateOption;
import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.FilterBuilder;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import io.bloomstore.SlicedFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's side of "outputs bound to one descriptor": while an operation writes its hidden
 * temporary, another thread renames a file of its own over the temporary's name (at a moment the
 * operation itself reports: its progress, or a slice being opened, after the temporary was made
 * and before it is sealed and published). The operation must never seal, write into, publish or
 * delete that file: it refuses in one message naming its target (not the temporary), the target
 * is as it was, and the neighbour's file is still under the name it put it, byte for byte. With
 * the temporary reopened by its name (before the fix) every case here published the neighbour's
 * file under the target's name, exit 0, and the in-memory build first wrote its cells into it.
 */
class OutputsRenamedOverWhileWrittenTest {
    private static final BloomSpec SPEC = BloomSpec.forExpected(50_000, 0.01);

    @TempDir
    Path dir;
    private Path foreign;
    private byte[] foreignBytes;
    private Path target;

    @BeforeEach
    void makeTheNeighboursFile() throws IOException {
        foreign = KnownKeyFilters.withKeys(dir.resolve("neighbour.bloom"), BloomSpec.forExpected(1_000, 0.01), 7_000_000, 500);
        try (BloomFilter filter = BloomFilter.open(foreign, OpenMode.READ_WRITE)) {
            filter.seal(); // a valid, sealed filter: what a careless publish would put in place as ours
        }
        foreignBytes = Files.readAllBytes(foreign);
        target = dir.resolve("out.bloom");
    }

    @Test
    void mergeRefusesAndPublishesNothing() throws IOException {
        assertMergeRefused(KnownKeyFilters.withKeys(dir.resolve("a.bloom"), SPEC, 0, 20_000),
                KnownKeyFilters.withKeys(dir.resolve("b.bloom"), SPEC, 10_000, 20_000));
    }

    @Test
    void mergeOfGrowingFiltersRefusesAndPublishesNothing() throws IOException {
        assertMergeRefused(growing("a.bloom", 0), growing("b.bloom", 3_000));
    }

    private void assertMergeRefused(Path a, Path b) throws IOException {
        Neighbour neighbour = new Neighbour("new");
        IOException refused = assertThrows(IOException.class,
                () -> Merge.toNewFile(target, List.of(a, b), MergeOp.OR, bytes -> neighbour.renameOnce()));
        assertRefusedAndLeftAlone(refused, neighbour);
    }

    @Test
    void unpackRefusesAndPublishesNothing() throws IOException {
        byte[] pack = KnownKeyFilters.pack(KnownKeyFilters.withKeys(dir.resolve("packed.bloom"), SPEC, 0, 20_000));
        Neighbour neighbour = new Neighbour("new");
        IOException refused = assertThrows(IOException.class, () -> Pack.unpack(new ByteArrayInputStream(pack),
                "packed.pack", target, bytes -> neighbour.renameOnce()));
        assertRefusedAndLeftAlone(refused, neighbour);
    }

    @Test
    void unpackOverAnExistingFilterRefusesAndKeepsIt() throws IOException {
        byte[] pack = KnownKeyFilters.pack(KnownKeyFilters.withKeys(dir.resolve("packed.bloom"), SPEC, 0, 20_000));
        KnownKeyFilters.withKeys(target, SPEC, 100, 10);
        byte[] old = Files.readAllBytes(target);
        Neighbour neighbour = new Neighbour("new");
        IOException refused = assertThrows(IOException.class, () -> Pack.unpack(new ByteArrayInputStream(pack),
                "packed.pack", target, bytes -> neighbour.renameOnce(), CreateOption.REPLACE_EXISTING));
        assertRefusedAndLeftAlone(refused, neighbour, old);
    }

    @Test
    void packToAFileRefusesAndPublishesNothing() throws IOException {
        Path filter = KnownKeyFilters.withKeys(dir.resolve("packed.bloom"), SPEC, 0, 20_000);
        Neighbour neighbour = new Neighbour("new");
        IOException refused = assertThrows(IOException.class,
                () -> Pack.packTo(filter, target, bytes -> neighbour.renameOnce()));
        assertRefusedAndLeftAlone(refused, neighbour);
    }

    @Test
    void assemblingSlicesRefusesAndPublishesNothing() throws IOException {
        SlicedFilter plan = SlicedFilter.of(BloomSpec.builder().expectedKeys(50_000).fpp(0.01).layout(Layout.BLOCKED)
                .build(), 2);
        Neighbour neighbour = new Neighbour("new");
        IOException refused = assertThrows(IOException.class, () -> plan.assemble(target, slice -> {
            if (slice == 1) {
                neighbour.renameOnce(); // slice 0 is written by now, the seal is still to come
            }
            return new ByteArrayInputStream(new byte[(int) plan.sliceBytes(slice)]);
        }));
        assertRefusedAndLeftAlone(refused, neighbour);
    }

    @Test
    void aBuildInTheMappedFileRefusesAndPublishesNothing() throws IOException {
        assertBuildRefused(FilterBuilder.to(target).spec(SPEC).inMemory(false));
    }

    @Test
    void aBuildInMemoryRefusesWithoutWritingIntoTheNeighboursFile() throws IOException {
        assertBuildRefused(FilterBuilder.to(target).spec(SPEC).inMemory(true));
    }

    @Test
    void aGrowingBuildRefusesAndPublishesNothing() throws IOException {
        assertBuildRefused(FilterBuilder.to(target).growing(GrowingSpec.of(1_000, 0.01)));
    }

    /**
     * The spool a build copies a stream into is read back through its descriptor: a key file
     * renamed over it is never read, and the filter holds the stream's keys, counted right.
     */
    @Test
    void aBuildReadsBackTheSpoolItWroteNotAFileRenamedOverIt() throws IOException {
        foreign = Files.writeString(dir.resolve("neighbour.keys"), "x\ny\nz\n");
        foreignBytes = Files.readAllBytes(foreign);
        Neighbour neighbour = new Neighbour("keys");
        String keys = LongStream.range(0, 20_000).mapToObj(k -> "key-" + k).collect(Collectors.joining("\n", "", "\n"));
        FilterBuilder.Built built = FilterBuilder.to(target).sizedFor(n -> BloomSpec.forExpected(n, 0.01))
                .progress(neighbourDuring(FilterBuilder.Stage.SPOOL, neighbour))
                .fromLines(new ByteArrayInputStream(keys.getBytes(StandardCharsets.UTF_8)));
        assertEquals(20_000, built.keys());
        try (BloomFilter filter = BloomFilter.open(target, OpenMode.READ_ONLY)) {
            for (long k = 0; k < 20_000; k++) {
                assertTrue(filter.mightContain("key-" + k), "key-" + k);
            }
        }
        assertNotNull(neighbour.swapped, "the neighbour renamed its file over the spool");
        assertTrue(Files.isSameFile(neighbour.swapped, foreign), "the neighbour's file is where it put it");
        assertArrayEquals(foreignBytes, Files.readAllBytes(foreign));
    }

    private void assertBuildRefused(FilterBuilder builder) throws IOException {
        Neighbour neighbour = new Neighbour("building");
        String keys = LongStream.range(0, 20_000).mapToObj(k -> "key-" + k).collect(Collectors.joining("\n", "", "\n"));
        IOException refused = assertThrows(IOException.class, () -> builder.progress(neighbourDuring(FilterBuilder.Stage.BUILD, neighbour))
                .fromLines(new ByteArrayInputStream(keys.getBytes(StandardCharsets.UTF_8))));
        assertRefusedAndLeftAlone(refused, neighbour);
    }

    private static FilterBuilder.Phases neighbourDuring(FilterBuilder.Stage phase, Neighbour neighbour) {
        return (stage, total) -> bytes -> {
            if (stage == phase) {
                neighbour.renameOnce();
            }
        };
    }

    private Path growing(String name, int first) throws IOException {
        Path file = dir.resolve(name);
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, GrowingSpec.of(1_000, 0.01))) {
            for (int key = first; key < first + 3_000; key++) {
                filter.add("k" + key);
            }
        }
        return file;
    }

    private void assertRefusedAndLeftAlone(IOException refused, Neighbour neighbour) throws IOException {
        assertRefusedAndLeftAlone(refused, neighbour, null);
    }

    /** The refusal names the target, never the temporary; the target is as it was ({@code old}, or absent); the neighbour's file is untouched. */
    private void assertRefusedAndLeftAlone(IOException refused, Neighbour neighbour, byte[] old) throws IOException {
        assertNotNull(neighbour.swapped, "the neighbour renamed its file over the temporary");
        String message = refused.getMessage();
        assertTrue(message.startsWith(target + ": ") && message.contains("another process replaced"), message);
        assertFalse(message.contains(".tmp"), "names the user's file, not the temporary: " + message);
        if (old == null) {
            assertFalse(Files.exists(target), "nothing published");
        } else {
            assertArrayEquals(old, Files.readAllBytes(target), "the old target is kept");
        }
        assertTrue(Files.isSameFile(neighbour.swapped, foreign), "the neighbour's file is where it put it");
        assertArrayEquals(foreignBytes, Files.readAllBytes(foreign), "and never written into");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(neighbour.swapped), left.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList(),
                    "our temporary is deleted, the neighbour's file is not");
        }
    }

    /** Another process's way of breaking in: a file of its own renamed, once, over the hidden temporary of a purpose. */
    private final class Neighbour {
        private final String purpose;
        Path swapped;

        Neighbour(String purpose) {
            this.purpose = purpose;
        }

        void renameOnce() {
            if (swapped != null) {
                return;
            }
            try (Stream<Path> files = Files.list(dir)) {
                List<Path> temporaries = files.filter(p -> {
                    String name = p.getFileName().toString();
                    return name.startsWith("." + target.getFileName() + ".") && name.endsWith("." + purpose + ".tmp");
                }).toList();
                assertEquals(1, temporaries.size(), "one temporary of " + purpose + ": " + temporaries);
                Path staging = Files.createLink(dir.resolve("staging"), foreign);
                Files.move(staging, temporaries.get(0), StandardCopyOption.ATOMIC_MOVE);
                swapped = temporaries.get(0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}

package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.Checkpoint;
import io.bloomstore.CreateOption;
import io.bloomstore.FilterBuilder;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import io.bloomstore.BloomSpec;
import io.bloomstore.testing.ChildJvm;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk is an error at create time (or merge, or unpack time), never a SIGBUS later: cells are
 * allocated up front by writing zeros, and a failure leaves no file behind, not even the temporary.
 *
 * <p>The cases on an 8 MiB tmpfs mounted for the test need root (or CAP_SYS_ADMIN) and are skipped,
 * saying why, where mounting is not allowed; the file-size-limit case needs no privilege.
 */
class DiskFullTest {
    private static final long SMALL_FS_BYTES = 8L << 20;
    /** 16 MiB of 1-bit cells: twice what the small file system holds. */
    private static final BloomSpec TOO_BIG = BloomSpec.builder().cells(16L << 23).hashes(7).build();
    private static final BloomSpec FITS = BloomSpec.builder().cells(1L << 23).hashes(7).build();

    @TempDir
    static Path scratch;
    private static Path small;
    private static String whyNotMounted;

    @BeforeAll
    static void mountSmallFileSystem() throws Exception {
        small = Files.createDirectory(scratch.resolve("small-fs"));
        whyNotMounted = run("mount", "-t", "tmpfs", "-o", "size=" + SMALL_FS_BYTES, "tmpfs", small.toString());
    }

    @AfterAll
    static void unmountSmallFileSystem() throws Exception {
        if (whyNotMounted == null) {
            String problem = run("umount", small.toString());
            assertEquals(null, problem, "unmounting " + small);
        }
    }

    /** Empties the small file system between tests, so each starts with all 8 MiB free. */
    @AfterEach
    void emptySmallFileSystem() throws IOException {
        for (String name : Directories.names(small)) {
            Files.delete(small.resolve(name));
        }
    }

    @Test
    void createLargerThanTheFreeSpaceFailsAtCreateTimeAndLeavesNothing() throws Exception {
        assumeSmallFileSystem();
        Path file = small.resolve("too-big.bloom");
        IOException e = assertThrows(IOException.class, () -> BloomFilter.create(file, TOO_BIG));
        // Refused by the free-space check, before a byte is written.
        long needed = TOO_BIG.cellBytes() + 4096;
        assertTrue(e.getMessage().contains("needs " + needed + " bytes") && e.getMessage().contains(small + " has ")
                && e.getMessage().contains("create it sparse"), e.getMessage());
        assertEquals(List.of(), Directories.names(small), "not even the temporary file is left");
        assertEquals(SMALL_FS_BYTES, Files.getFileStore(small).getUnallocatedSpace(), "every byte is freed");
    }

    /**
     * Sparse creation allocates nothing, so it succeeds on a disk too small for the cells. (Filling
     * it would end in SIGBUS once the disk is full: the JVM reports an InternalError, or dies. That
     * is the documented price of SPARSE; this test does not trigger it.)
     */
    @Test
    void sparseCreateOnASmallFileSystemSucceedsAtOnceAndAllocatesNothing() throws Exception {
        assumeSmallFileSystem();
        Path file = small.resolve("sparse.bloom");
        long start = System.nanoTime();
        try (BloomFilter filter = BloomFilter.create(file, TOO_BIG, CreateOption.SPARSE)) {
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(filter.info().sparse());
            assertEquals(TOO_BIG.cellBytes() + 4096, Files.size(file), "the file has its full length");
            FileStore store = Files.getFileStore(small);
            long allocated = store.getTotalSpace() - store.getUnallocatedSpace();
            assertTrue(allocated <= 64 * 1024, "a sparse create allocates a page or two, not " + allocated);
            System.out.printf("sparse create of %d MiB on an 8 MiB file system: %d ms, %d KiB allocated%n",
                    TOO_BIG.cellBytes() >> 20, millis, allocated >> 10);
        }
    }

    @Test
    void mergeOntoAFullFileSystemFailsAndLeavesNothing() throws Exception {
        assumeSmallFileSystem();
        Path a = KnownKeyFilters.withKeys(scratch.resolve("a.bloom"), TOO_BIG, 0, 1000);
        Path b = KnownKeyFilters.withKeys(scratch.resolve("b.bloom"), TOO_BIG, 1000, 1000);
        IOException e = assertThrows(IOException.class,
                () -> Merge.toNewFile(small.resolve("merged.bloom"), List.of(a, b), MergeOp.OR));
        assertTrue(e.getMessage().startsWith(small.resolve("merged.bloom") + ": needs ")
                && e.getMessage().endsWith("size it smaller"), e.getMessage());
        assertEquals(List.of(), Directories.names(small));
    }

    @Test
    void unpackOntoAFullFileSystemFailsAndKeepsTheFileItWouldReplace() throws Exception {
        assumeSmallFileSystem();
        byte[] pack = KnownKeyFilters.pack(KnownKeyFilters.withKeys(scratch.resolve("big.bloom"), TOO_BIG, 0, 1000));
        Path existing = KnownKeyFilters.withKeys(small.resolve("existing.bloom"), FITS, 0, 1000);
        byte[] before = Files.readAllBytes(existing);
        IOException e = assertThrows(IOException.class,
                () -> Pack.unpack(new ByteArrayInputStream(pack), "big pack", existing, CreateOption.REPLACE_EXISTING));
        // A full disk is the disk's fault, not the pack's: a user told a good backup is damaged may throw it away.
        assertFalse(e instanceof InvalidFilterFileException, e.toString());
        assertTrue(e.getMessage().contains("No space left on device") && e.getMessage().startsWith(existing + ": cannot write it"),
                e.getMessage());
        assertEquals(List.of("existing.bloom"), Directories.names(small), "no temporary file is left");
        assertArrayEquals(before, Files.readAllBytes(existing), "the file it would have replaced is untouched");
    }

    /** A build filled in memory checks the free space before it reads a key, as a create does. */
    @Test
    void anInMemoryBuildLargerThanTheFreeSpaceIsRefusedBeforeReadingAKey() throws Exception {
        assumeSmallFileSystem();
        Path file = small.resolve("built.bloom");
        ByteArrayInputStream keys = new ByteArrayInputStream("a\nb\n".getBytes(StandardCharsets.US_ASCII));
        IOException e = assertThrows(IOException.class,
                () -> FilterBuilder.to(file).spec(TOO_BIG).inMemory(true).fromLines(keys));
        assertTrue(e.getMessage().contains("needs " + (TOO_BIG.cellBytes() + 4096) + " bytes"), e.getMessage());
        assertEquals(4, keys.available(), "no key read");
        assertEquals(List.of(), Directories.names(small), "not even the temporary file is left");
    }

    /**
     * A sparse build in memory passes the free-space check (it allocates only the pages keys set),
     * and its file is written only when sealed: a disk that is full by then fails that write, with
     * an error naming the target (not its temporary), and nothing is left. A sparse mapped build
     * would have died of SIGBUS in the middle of the adds instead.
     */
    @Test
    void aSparseInMemoryBuildThatFillsTheDiskFailsWhenWrittenAndLeavesNothing() throws Exception {
        assumeSmallFileSystem();
        Path file = small.resolve("built.bloom");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 20_000; i++) { // 140 000 cells set across 4096 pages: every page written
            lines.append("key-").append(i).append('\n');
        }
        ByteArrayInputStream keys = new ByteArrayInputStream(lines.toString().getBytes(StandardCharsets.US_ASCII));
        IOException e = assertThrows(IOException.class,
                () -> FilterBuilder.to(file).spec(TOO_BIG).options(CreateOption.SPARSE).inMemory(true).fromLines(keys));
        assertTrue(e.getMessage().startsWith(file + ": cannot write it in " + small)
                && e.getMessage().contains("No space left on device"), e.getMessage());
        assertEquals(List.of(), Directories.names(small), "not even the temporary file is left");
        assertEquals(SMALL_FS_BYTES, Files.getFileStore(small).getUnallocatedSpace(), "every byte is freed");
    }

    /**
     * The same failure without root: a file-size limit (RLIMIT_FSIZE, set on the child with
     * prlimit) makes the zero-filling write fail as a full disk does (the JVM ignores SIGXFSZ, so the
     * write returns EFBIG), through the real create path. (FileCreationTest's
     * failedPublishLeavesNothingBehind covers the same through a content writer that throws.)
     */
    @Test
    void aFileSizeLimitFailsTheCreateAtCreateTimeAndLeavesNothing() throws Exception {
        Path dir = Files.createDirectory(scratch.resolve("size-limited"));
        long cells = TOO_BIG.cells();
        try (ChildJvm creator = ChildJvm.start(FilterCreator.class, dir.resolve("limited.bloom").toString(),
                Long.toString(cells), "await-go")) {
            creator.expectLine("ready", Children.TIMEOUT);
            String problem = run("prlimit", "--pid", Long.toString(creator.pid()), "--fsize=" + SMALL_FS_BYTES);
            assumeTrue(problem == null, () -> "cannot limit the child's file size: " + problem);
            creator.send("go");
            creator.expectLine("creating", Children.TIMEOUT);
            String refusal = creator.readLine(Children.TIMEOUT);
            assertTrue(refusal.startsWith("refused ") && refusal.contains("cannot write it in " + dir)
                    && refusal.contains("File too large") && refusal.contains("create it sparse"), refusal);
            creator.awaitSuccess(Children.TIMEOUT);
        }
        assertEquals(List.of(), Directories.names(dir), "not even the temporary file is left");
    }

    /** A checkpoint whose copy must grow (a growing file's new segments) past the free space is refused first, naming the copy. */
    @Test
    void aCheckpointThatWouldFillTheDiskNamesTheCopyAndWritesNothing() throws Exception {
        assumeSmallFileSystem();
        Path live = scratch.resolve("growing.bloom");
        Path copy = small.resolve("copy.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(live, GrowingSpec.of(100_000, 0.01))) {
            Checkpoint.write(live, copy);
            fill(small);
            for (long key = 0; key < 400_000; key++) {
                filter.add(key);
            }
        }
        byte[] before = Files.readAllBytes(copy);
        IOException e = assertThrows(IOException.class, () -> Checkpoint.write(live, copy));
        assertTrue(e.getMessage().startsWith(copy + ": the checkpoint must add ") && e.getMessage().contains(small
                + " has ") && e.getMessage().contains("nothing was written: free disk space"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(copy));
        Files.delete(live);
    }

    /** A checkpoint that fills the disk while it writes (into a copy with holes) names the copy and what to do. */
    @Test
    void aCheckpointThatFillsTheDiskWhileWritingNamesTheCopy() throws Exception {
        assumeSmallFileSystem();
        Path live = KnownKeyFilters.withKeys(scratch.resolve("fixed.bloom"), FITS, 0, 1_000);
        Path copy = small.resolve("copy.bloom");
        Checkpoint.write(live, copy);
        try (BloomFilter filter = BloomFilter.open(live, OpenMode.READ_WRITE)) {
            for (long key = 1_000; key < 200_000; key++) {
                filter.add(key);
            }
        }
        String punched = run("fallocate", "--punch-hole", "--offset", "4096", "--length", Long.toString(FITS.cellBytes()),
                copy.toString());
        assumeTrue(punched == null, () -> "cannot punch a hole in the copy: " + punched);
        fill(small);
        IOException e = assertThrows(IOException.class, () -> Checkpoint.write(live, copy));
        assertTrue(e.getMessage().startsWith(copy + ": the checkpoint could not write it (No space left on device)")
                && e.getMessage().contains("free disk space in " + small + ", then run the checkpoint again"), e.getMessage());
        Files.delete(live);
    }

    /** Writes a file into {@code dir} until its file system is full. */
    private static void fill(Path dir) throws IOException {
        try (var out = Files.newOutputStream(dir.resolve("filler"))) {
            byte[] chunk = new byte[64 * 1024];
            while (true) {
                out.write(chunk);
            }
        } catch (IOException full) {
            assertTrue(String.valueOf(full.getMessage()).contains("No space left on device"), full.toString());
        }
    }

    private static void assumeSmallFileSystem() {
        assumeTrue(whyNotMounted == null, () -> "no size-limited file system to fill: " + whyNotMounted
                + " (needs root or CAP_SYS_ADMIN); the file-size-limit case still runs");
    }

    /** Runs a command; returns null if it succeeded, else what it printed. */
    static String run(String... command) throws Exception {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        String output = new String(process.getInputStream().readAllBytes()).trim();
        return process.waitFor() == 0 ? null : String.join(" ", command) + ": " + output;
    }
}

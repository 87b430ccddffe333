package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the jar says to the mistakes a new user makes (issue 36, "Messages" and promise 4): a
 * mistyped command or option, too few operands, a missing directory, an existing file of another
 * kind, a size far too large, a full disk under a file that cannot be sparse. Each is one line on
 * stderr, exit 2, and says what to do.
 */
class MistakesIT {
    @TempDir
    Path dir;

    @Test
    void anUnknownCommandIsAnErrorWithOrWithoutHelp() {
        for (List<String> args : List.of(List.of("no-such-verb"), List.of("no-such-verb", "--help"),
                List.of("--help", "no-such-verb"), List.of("no-such-verb", "-h"))) {
            String err = run(dir, args.toArray(String[]::new)).assertError(ExitCode.ERROR).err();
            assertTrue(err.startsWith("bloomstore: 'no-such-verb' is not a command; the commands are create, build,"), err);
        }
        assertEquals(0, run(dir, "--help").exit(), "the help itself still exits 0");
    }

    @Test
    void aMistypedCommandOrOptionGetsAGuess() {
        assertTrue(run(dir, "contian", "f.bloom", "k").assertError(ExitCode.ERROR).err()
                .startsWith("bloomstore: 'contian' is not a command; did you mean 'contains'? The commands are "));
        assertTrue(run(dir, "crate", "--help").assertError(ExitCode.ERROR).err()
                .startsWith("bloomstore: 'crate' is not a command; did you mean 'create'? The commands are "));

        for (List<String> args : List.of(List.of("create", "f.bloom", "--expect", "10k", "--fpp", "0.01"),
                List.of("create", "f.bloom", "--expect=10k", "--fpp", "0.01"),
                List.of("create", "f.bloom", "--expected", "10k", "--fpp", "0.01", "--expect", "1", "--help"))) {
            String err = run(dir, args.toArray(String[]::new)).assertError(ExitCode.ERROR).err();
            assertTrue(err.contains("did you mean '--expected'?") && err.endsWith("(see 'bloomstore create --help')\n"), err);
        }
        String err = run(dir, "contains", "f.bloom", "--prnt", "absent").assertError(ExitCode.ERROR).err();
        assertTrue(err.contains("Unknown option: '--prnt'; did you mean '--print'?"), err);
        assertEquals(List.of(), filesIn(), "nothing was created");
    }

    @Test
    void mergeWithOneInputSaysItNeedsTwo() {
        run(dir, "create", "one.bloom", "--expected", "1k", "--fpp", "0.01").assertOk();
        assertEquals("bloomstore: merge needs at least 2 IN operands, got 1 (see 'bloomstore merge --help')\n",
                run(dir, "merge", "out.bloom", "one.bloom").assertError(ExitCode.ERROR).err());
    }

    @Test
    void aMissingDirectoryIsCalledOne() throws Exception {
        Path missing = dir.resolve("no-such-dir");
        for (List<String> args : List.of(List.of("create", "no-such-dir/f.bloom", "--expected", "1k", "--fpp", "0.01"),
                List.of("create", "no-such-dir/g.bloom", "--expected", "1k", "--fpp", "0.01", "--grow"),
                List.of("build", "no-such-dir/f.bloom", "--from", "keys.txt", "--fpp", "0.01"))) {
            Files.writeString(dir.resolve("keys.txt"), "a\nb\n");
            assertEquals("bloomstore: " + missing + ": no such directory; make it first (mkdir -p)\n",
                    run(dir, args.toArray(String[]::new)).assertError(ExitCode.ERROR).err(), args.toString());
        }
        run(dir, "create", "f.bloom", "--expected", "1k", "--fpp", "0.01").assertOk();
        assertEquals("bloomstore: no-such-dir/keys.txt: no such file: there is no directory " + missing + "\n",
                run(dir, "add", "f.bloom", "--from", "no-such-dir/keys.txt").assertError(ExitCode.ERROR).err());
        assertEquals("bloomstore: gone.txt: no such file\n",
                run(dir, "add", "f.bloom", "--from", "gone.txt").assertError(ExitCode.ERROR).err());
    }

    /**
     * dedup's sizing options on an existing file of another kind name both kinds and what to give,
     * where the opener of the kind asked for said the file's format version "is not supported".
     */
    @Test
    void dedupsSizingOptionsOnAFileOfAnotherKindNameBothKinds() {
        run(dir, "create", "g.bloom", "--expected", "1k", "--fpp", "0.01", "--grow").assertOk();
        String err = run(dir, "a\n".getBytes(StandardCharsets.UTF_8), "dedup", "g.bloom", "--expected", "1k", "--fpp", "0.01")
                .assertError(ExitCode.ERROR).err();
        assertEquals("bloomstore: g.bloom is a growing filter, but the options describe a fixed one; leave out the "
                + "sizing options to use the file as it is, or give --grow with the options it was created with\n", err);
        assertEquals("a\n", run(dir, "a\n".getBytes(StandardCharsets.UTF_8), "dedup", "g.bloom", "--expected", "1k",
                "--fpp", "0.01", "--grow").assertOk().stdout());
        assertEquals("", run(dir, "a\n".getBytes(StandardCharsets.UTF_8), "dedup", "g.bloom").assertOk().stdout());

        run(dir, "create", "f.bloom", "--expected", "1k", "--fpp", "0.01").assertOk();
        assertTrue(run(dir, "a\n".getBytes(StandardCharsets.UTF_8), "dedup", "f.bloom", "--expected", "1k", "--fpp", "0.01",
                "--window", "1h").assertError(ExitCode.ERROR).err()
                .startsWith("bloomstore: f.bloom is a fixed filter, but the options describe a windowed one; "));
    }

    /**
     * A filter whose cells take more than twice this machine's memory is refused, with its size and
     * --force-size; given --force-size, the size check is passed and the next one (the disk's free
     * space, which the size is made to exceed too) speaks. Nothing is written either way.
     */
    @Test
    void aFilterFarBeyondMemoryIsRefusedUnlessForced() throws Exception {
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        long bytes = 3 * Math.max(memory, Files.getFileStore(dir).getUsableSpace());
        String keys = Long.toString(bytes); // at 1% a key takes about 1.2 bytes: more than 'bytes' bytes of cells
        for (List<String> kind : List.<List<String>>of(List.of(), List.of("--grow"), List.of("--window", "1d"))) {
            List<String> args = new ArrayList<>(List.of("create", "big.bloom", "--expected", keys, "--fpp", "0.01"));
            args.addAll(kind);
            String err = run(dir, args.toArray(String[]::new)).assertError(ExitCode.ERROR).err();
            assertTrue(err.startsWith("bloomstore: big.bloom: its cells would take ") && err.contains(
                    "more than twice this machine's memory (") && err.contains("give --force-size to create it anyway"), err);
            args.add("--force-size");
            err = run(dir, args.toArray(String[]::new)).assertError(ExitCode.ERROR).err();
            assertTrue(err.contains("bytes free") && !err.contains("--force-size"), err);
        }
        String sparse = run(dir, "build", "big.bloom", "--from", "-", "--expected", keys, "--fpp", "0.01", "--sparse")
                .assertError(ExitCode.ERROR).err();
        assertTrue(sparse.contains("more than twice this machine's memory"), sparse);
        assertEquals(List.of(), filesIn(), "nothing was written");

        String created = run(dir, "create", "small.bloom", "--expected", "1k", "--fpp", "0.01").assertOk().stdout();
        assertTrue(created.endsWith(" KiB); allocated on disk\n"), created);
        created = run(dir, "create", "sparse.bloom", "--expected", "1k", "--fpp", "0.01", "--sparse").assertOk().stdout();
        assertTrue(created.endsWith("; sparse: blocks are allocated as keys set cells\n"), created);
    }

    /** A growing or windowed file cannot be sparse: a disk too small for one is not told to make it so. */
    @Test
    void aFullDiskUnderAFileThatCannotBeSparseIsNotToldToMakeItSparse() throws Exception {
        try (SmallFileSystem small = SmallFileSystem.mount(dir, "small", "1m")) {
            for (List<String> kind : List.of(List.of("--grow"), List.of("--window", "1h"))) {
                List<String> args = new ArrayList<>(List.of("create", "f.bloom", "--expected", "1M", "--fpp", "0.01"));
                args.addAll(kind);
                String err = run(small.root(), args.toArray(String[]::new)).assertError(ExitCode.ERROR).err();
                assertTrue(err.contains("bytes free; free disk space, write it elsewhere, or (a new filter) size it "
                        + "smaller\n"), err);
            }
            String fixed = run(small.root(), "create", "f.bloom", "--expected", "1M", "--fpp", "0.01")
                    .assertError(ExitCode.ERROR).err();
            assertTrue(fixed.endsWith("size it smaller or create it sparse\n"), fixed);
        }
    }

    /**
     * A growing build that fills the disk names the file the user asked for, not the hidden
     * temporary it builds in (a growth's own message used to name the temporary).
     */
    @Test
    void aGrowingBuildThatFillsTheDiskNamesItsTarget() throws Exception {
        Path keys = dir.resolve("keys.txt");
        try (var out = Files.newBufferedWriter(keys)) {
            for (int i = 0; i < 400_000; i++) {
                out.write("key-" + i + "\n");
            }
        }
        try (SmallFileSystem small = SmallFileSystem.mount(dir, "small", "1m")) {
            String err = run(small.root(), "build", "g.bloom", "--from", keys.toString(), "--fpp", "0.01", "--grow",
                    "--expected", "1000").assertError(ExitCode.ERROR).err();
            assertTrue(err.contains("g.bloom: cannot grow"), err);
            assertFalse(err.contains(".g.bloom."), "names the hidden temporary: " + err);
            assertEquals(List.of(), JarProcess.filesIn(small.root()), "the build leaves nothing behind");
        }
    }

    private List<String> filesIn() {
        try {
            return JarProcess.filesIn(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

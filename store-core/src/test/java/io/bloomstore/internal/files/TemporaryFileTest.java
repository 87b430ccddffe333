package io.bloomstore.internal.files;

import io.bloomstore.BloomFilter;
import io.bloomstore.CreateOption;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomSpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.LinkOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Temporaries: their names, permissions, publishing, and the deletion of those a dead process left. */
class TemporaryFileTest {
    private static final BloomSpec SPEC = BloomSpec.builder().cells(1 << 12).hashes(3).build();

    @TempDir
    Path dir;

    @Test
    void aNewFilterGetsTheModeANewFileGetsNotOwnerOnly() throws Exception {
        Path plain = Files.createFile(dir.resolve("plain")); // 0666 less this process's umask
        BloomFilter.create(dir.resolve("f.bloom"), SPEC).close();
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(dir.resolve("f.bloom")));
    }

    @Test
    void replacingAFileKeepsItsPermissions() throws Exception {
        Path file = dir.resolve("shared.bloom");
        BloomFilter.create(file, SPEC).close();
        Set<PosixFilePermission> groupWritable = PosixFilePermissions.fromString("rw-rw-r--");
        Files.setPosixFilePermissions(file, groupWritable);
        BloomFilter.create(file, SPEC, CreateOption.REPLACE_EXISTING).close();
        assertEquals(groupWritable, Files.getPosixFilePermissions(file));
    }

    @Test
    void publishingWithoutReplaceRefusesATargetThatAppearedMeanwhileAndDeletesTheTemporary() throws Exception {
        Path target = dir.resolve("t.bloom");
        try (TemporaryFile temporary = TemporaryFile.beside(target, "test")) {
            String name = temporary.path().getFileName().toString();
            assertTrue(name.startsWith(".t.bloom." + ProcessHandle.current().pid() + ".") && name.endsWith(".test.tmp"), name);
            Files.writeString(target, "someone else's");
            assertThrows(FileAlreadyExistsException.class, () -> temporary.publishAs(target, false));
        }
        assertEquals(Set.of("t.bloom"), names());
        assertEquals("someone else's", Files.readString(target));
    }

    @Test
    void aTemporaryOfADeadProcessIsDeletedByTheNextOneBesideTheSameTarget() throws Exception {
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Path orphan = Files.createFile(dir.resolve(".t.bloom." + dead.pid() + ".x1.new.tmp"));
        Path live = Files.createFile(dir.resolve(".t.bloom." + ProcessHandle.current().pid() + ".x2.new.tmp"));
        Path otherTarget = Files.createFile(dir.resolve(".u.bloom." + dead.pid() + ".x3.new.tmp"));
        Path notOurs = Files.createFile(dir.resolve(".t.bloom.notapid.tmp"));
        try (TemporaryFile temporary = TemporaryFile.beside(dir.resolve("t.bloom"), "new")) {
            assertFalse(Files.exists(orphan), "its process is gone");
            assertTrue(Files.exists(live) && Files.exists(otherTarget) && Files.exists(notOurs));
        }
    }

    @Test
    void aTemporaryMadeForATemporaryIsNamedAfterTheRealTargetSoTheNextCommandBesideItSweepsIt() throws Exception {
        Path target = dir.resolve("big.bloom");
        long pid = ProcessHandle.current().pid();
        try (TemporaryFile building = TemporaryFile.beside(target, "building");
                TemporaryFile inner = TemporaryFile.beside(building.path(), "new")) {
            String name = inner.path().getFileName().toString();
            assertTrue(name.startsWith(".big.bloom." + pid + ".") && name.endsWith(".new.tmp"), name);
        }
        long dead = deadPid();
        // what a kill -9 leaves of a temporary made for a temporary (as builds made them before they wrote into their own): both levels
        Path outer = Files.createFile(dir.resolve(".big.bloom." + dead + ".a1.building.tmp"));
        Path inner = Files.createFile(dir.resolve(".big.bloom." + dead + ".a2.new.tmp"));
        TemporaryFile.beside(target, "new").close();
        assertFalse(Files.exists(outer) || Files.exists(inner), names().toString());
    }

    @Test
    void theSweepNeverTakesTheNumberAfterATargetsNameForAPid() throws Exception {
        long dead = deadPid();
        // the live temporary of a build of "ids.<dead>": read loosely, its name says PID <dead> beside "ids"
        Path otherTargets = Files.createFile(dir.resolve(".ids." + dead + "." + ProcessHandle.current().pid()
                + ".k3.building.tmp"));
        TemporaryFile.beside(dir.resolve("ids"), "new").close();
        assertTrue(Files.exists(otherTargets));
    }

    @Test
    void whateverTheTargetsNamesOnlyTheDeadTemporariesOfTheTargetAreSwept() throws Exception {
        Random random = new Random(16);
        long dead = deadPid();
        long live = ProcessHandle.current().pid();
        String[] parts = {"ids", "1", "20000", String.valueOf(dead), String.valueOf(live), "bloom", "x", "tmp", "new"};
        for (int round = 0; round < 200; round++) {
            List<String> targets = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                StringBuilder name = new StringBuilder(parts[random.nextInt(3)]);
                for (int more = random.nextInt(4); more > 0; more--) {
                    name.append('.').append(parts[random.nextInt(parts.length)]);
                }
                targets.add(name.toString());
            }
            Set<String> expected = new HashSet<>();
            for (String target : targets) {
                for (long pid : new long[] {dead, live}) {
                    String temporary = "." + target + "." + pid + "." + Long.toString(random.nextInt(1000), 36) + ".new.tmp";
                    Files.createFile(dir.resolve(temporary));
                    if (pid == live || !target.equals(targets.get(0))) {
                        expected.add(temporary);
                    }
                }
            }
            TemporaryFile.beside(dir.resolve(targets.get(0)), "sweep").close();
            assertEquals(expected, names(), "targets " + targets);
            for (String name : names()) {
                Files.delete(dir.resolve(name));
            }
        }
    }

    @Test
    void aDeviceAFifoASymbolicLinkOrADirectoryIsNeverReplacedByANewFile() throws Exception {
        Path regular = Files.writeString(dir.resolve("regular"), "kept");
        Path link = Files.createSymbolicLink(dir.resolve("link"), regular);
        Path fifo = dir.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Path directory = Files.createDirectory(dir.resolve("directory"));
        for (Path target : List.of(link, fifo, directory)) { // never /dev/null: a broken check would replace it
            for (boolean replace : new boolean[] {true, false}) {
                IOException refused = assertThrows(IOException.class, () -> FilterFiles.publish(target, replace, 0,
                        (channel, temporary) -> FilterFiles.writeFully(channel, ByteBuffer.wrap(new byte[] {1}))));
                assertTrue(refused.getMessage().contains("not a regular file"), refused.getMessage());
            }
        }
        assertTrue(Files.isSymbolicLink(link) && Files.isDirectory(directory));
        assertTrue(Files.readAttributes(fifo, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther());
        assertEquals("kept", Files.readString(regular));
        assertEquals(Set.of("regular", "link", "fifo", "directory"), names(), "no temporary is left behind");
    }

    private static long deadPid() throws Exception {
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        return dead.pid();
    }

    private Set<String> names() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}

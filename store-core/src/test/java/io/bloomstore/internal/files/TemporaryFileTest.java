package io.bloomstore.internal.files;

import io.bloomstore.BloomFilter;
import io.bloomstore.CreateOption;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomSpec;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
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

    private Set<String> names() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}

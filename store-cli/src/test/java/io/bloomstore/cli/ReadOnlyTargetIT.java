package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --force} onto a file its owner made read-only (0444) is refused, in one line that says
 * why and what to do, and the file is left as it was; made writable again, it is replaced.
 *
 * <p>Permission bits bind only an ordinary user: root may write any file. When the tests run as
 * root (as on the build machines), the jar runs as the user nobody, through setpriv(1), in a
 * directory nobody may write; as an ordinary user it runs as that user. The user nobody runs a
 * copy of the jar in a folder of its own that anyone may read: the checkout, and so
 * target/bloomstore.jar, may lie inside a folder only its owner may enter (as {@code mktemp -d}
 * makes them, and many home folders are).
 */
class ReadOnlyTargetIT {
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    @TempDir
    Path dir;

    /** Where the user nobody finds its copy of the jar. */
    @TempDir
    Path jarFolder;

    /** The jar's command line, run as an ordinary user. */
    private JarProcess.Result asUser(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        if (ROOT) {
            command.addAll(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"));
            command.addAll(JarProcess.command(readableJar(), args));
        } else {
            command.addAll(JarProcess.command(args));
        }
        return JarProcess.run(new ProcessBuilder(command), dir, new byte[0]);
    }

    /** A copy of the jar that any user may read, in a folder any user may enter. */
    private Path readableJar() throws IOException {
        Path copy = jarFolder.resolve(JarProcess.JAR.getFileName());
        if (!Files.exists(copy)) {
            Files.copy(JarProcess.JAR, copy);
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("r--r--r--"));
            Files.setPosixFilePermissions(jarFolder, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return copy;
    }

    @Test
    void forceOntoAReadOnlyFilterIsRefusedAndLeavesItAlone() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.writeString(dir.resolve("keys.txt"), "a\nb\nc\n");
        asUser("create", "f.bloom", "--expected", "1k", "--fpp", "0.01").assertOk();
        Path file = dir.resolve("f.bloom");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        byte[] before = Files.readAllBytes(file);

        for (String[] replacing : List.of(
                new String[] {"create", "f.bloom", "--expected", "2k", "--fpp", "0.01", "--force"},
                new String[] {"build", "f.bloom", "--from", "keys.txt", "--fpp", "0.01", "--force"})) {
            String err = asUser(replacing).assertError(ExitCode.ERROR).err();
            assertTrue(err.contains("f.bloom: is read-only for this user")
                    && err.contains("chmod u+w") && !err.contains("disk space"), err);
            assertArrayEquals(before, Files.readAllBytes(file), String.join(" ", replacing));
            assertEquals(List.of("f.bloom", "keys.txt"), JarProcess.filesIn(dir), "no temporary left");
        }

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        asUser("build", "f.bloom", "--from", "keys.txt", "--fpp", "0.01", "--force").assertOk();
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
                "the replaced file keeps its permissions");
    }
}

package io.bloomstore.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A tmpfs of a given size mounted for one test, to fill: a full disk without filling the machine's.
 * Mounting needs root (or CAP_SYS_ADMIN); where it is refused the test is skipped, saying why.
 */
final class SmallFileSystem implements AutoCloseable {
    private final Path root;

    private SmallFileSystem(Path root) {
        this.root = root;
    }

    /** Mounts a tmpfs of {@code size} ("1m", "64m") on a new folder {@code name} in {@code parent}. */
    static SmallFileSystem mount(Path parent, String name, String size) throws IOException {
        Path root = Files.createDirectory(parent.resolve(name));
        JarProcess.Result mount = JarProcess.run(new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs",
                root.toString()), parent, new byte[0]);
        assumeTrue(mount.exit() == 0, () -> "no small file system to fill (needs root): " + mount.err());
        return new SmallFileSystem(root);
    }

    Path root() {
        return root;
    }

    @Override
    public void close() {
        JarProcess.run(new ProcessBuilder("umount", root.toString()), root.getParent(), new byte[0]);
    }
}

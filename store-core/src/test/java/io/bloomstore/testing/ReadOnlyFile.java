package io.bloomstore.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Makes a file unwritable for this process, as far as the machine allows: permission bits for an
 * ordinary user; for root, which ignores them, the immutable attribute (chattr +i), which binds
 * root too. {@link #undo()} must run, or the test's temporary directory cannot be deleted.
 */
public final class ReadOnlyFile {
    private final Path file;
    private final boolean immutable;

    private ReadOnlyFile(Path file, boolean immutable) {
        this.file = file;
        this.immutable = immutable;
    }

    public static ReadOnlyFile make(Path file) throws InterruptedException {
        if (!file.toFile().setWritable(false, false)) {
            throw new IllegalStateException("cannot change the permissions of " + file);
        }
        boolean immutable = Files.isWritable(file) && chattr("+i", file);
        return new ReadOnlyFile(file, immutable);
    }

    /** Whether this process now really cannot write the file. */
    public boolean effective() {
        return !Files.isWritable(file);
    }

    public void undo() throws InterruptedException {
        if (immutable) {
            chattr("-i", file);
        }
        file.toFile().setWritable(true, true);
    }

    private static boolean chattr(String change, Path file) throws InterruptedException {
        try {
            Process process = new ProcessBuilder("chattr", change, file.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor() == 0;
        } catch (IOException e) {
            return false; // no chattr on this machine
        }
    }
}

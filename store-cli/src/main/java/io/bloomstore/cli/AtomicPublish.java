package io.bloomstore.cli;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Makes a finished temporary file appear at its final path in one step, so no process sees a
 * half-built filter and a failed command leaves nothing at the target. The temporary must be in
 * the target's directory (a rename does not cross file systems).
 */
final class AtomicPublish {
    private AtomicPublish() {
    }

    /** A new temporary file beside {@code target}, hidden: {@code .NAME.RANDOM.tmp}. */
    static Path temporaryBeside(Path target, String purpose) throws IOException {
        Path absolute = target.toAbsolutePath();
        return Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", "." + purpose + ".tmp");
    }

    /**
     * Renames {@code temporary} to {@code target}.
     *
     * @param replace whether an existing target is replaced; if not, an existing target fails the
     *     call with {@link FileAlreadyExistsException} and stays as it was (even if it appeared a
     *     moment ago: the hard link that publishes is atomic)
     */
    static void publish(Path temporary, Path target, boolean replace) throws IOException {
        if (replace) {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        try {
            Files.createLink(target, temporary);
        } catch (FileAlreadyExistsException e) {
            throw alreadyExists(target);
        } catch (UnsupportedOperationException | IOException e) {
            // No hard links on this file system: check, then rename (a race with another creator is possible).
            refuseExisting(target);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        Files.delete(temporary);
    }

    /** Fails early, before any work, when {@code target} exists and may not be replaced. */
    static void refuseExisting(Path target) throws FileAlreadyExistsException {
        if (Files.exists(target)) {
            throw alreadyExists(target);
        }
    }

    private static FileAlreadyExistsException alreadyExists(Path target) {
        return new FileAlreadyExistsException(target.toString(), null, "already exists; use --force to replace it");
    }
}

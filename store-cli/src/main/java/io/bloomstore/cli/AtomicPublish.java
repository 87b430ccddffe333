package io.bloomstore.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes a finished temporary file appear at its final path in one step, so no process sees a
 * half-built filter and a failed command leaves nothing at the target. The temporary must be in
 * the target's directory (a rename does not cross file systems).
 */
final class AtomicPublish {
    /** Temporaries not yet published or discarded: deleted if the JVM is stopped (Ctrl-C) meanwhile. */
    private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> PENDING.forEach(AtomicPublish::discard),
                "bloomstore-temporary-cleaner"));
    }

    private AtomicPublish() {
    }

    /**
     * A new temporary file beside {@code target}, hidden: {@code .NAME.RANDOM.PURPOSE.tmp}. It is
     * deleted if the process is stopped before it is published or discarded.
     */
    static Path temporaryBeside(Path target, String purpose) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".",
                "." + purpose + ".tmp");
        PENDING.add(temporary);
        return temporary;
    }

    /** Deletes a temporary that will not be published; quietly, since a failure is already being reported. */
    static void discard(Path temporary) {
        PENDING.remove(temporary);
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException ignored) {
            // best effort: the command's own error, if any, is the one to report
        }
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
        } else {
            linkWithoutReplacing(temporary, target);
        }
        PENDING.remove(temporary);
        forceDirectory(target.toAbsolutePath().getParent());
    }

    /** Makes the new name durable: the rename is in the directory, which fsync of the file does not cover. */
    private static void forceDirectory(Path folder) {
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException ignored) {
            // Not every file system lets a directory be opened for force; the rename stands regardless.
        }
    }

    private static void linkWithoutReplacing(Path temporary, Path target) throws IOException {
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

package io.bloomstore.internal.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A hidden file beside a target, written in full and then made the target in one step, or deleted:
 * {@code .NAME.PID.RANDOM.PURPOSE.tmp}. Whatever ends the process, no temporary outlives it for
 * long:
 * <ul>
 *   <li>an exception: {@link #close()} deletes it (use try-with-resources);
 *   <li>SIGTERM, Ctrl-C, {@code System.exit}: a shutdown hook deletes every temporary still open,
 *       and no new one can be made once it has begun;
 *   <li>kill -9, a JVM crash, a power cut: nothing runs, so the next temporary made beside the same
 *       target deletes the siblings whose process (the PID in their name) is gone. (PIDs of another
 *       host or PID namespace sharing the directory cannot be told apart; such a sibling is deleted
 *       only if no process of this host has its PID.)
 * </ul>
 * A temporary has the permissions a new file gets (0666 less the umask) while it is written, and
 * takes those of the target it replaces just before it is renamed over it, so replacing a file
 * never narrows who may open it (and a target without write permission for its owner does not
 * make the temporary unwritable before it is written).
 *
 * <p>Names are read strictly, so the sweep never takes another target's temporary for an orphan:
 * the part after {@code .NAME.} must be exactly {@code PID.RANDOM.PURPOSE.tmp}. Beside {@code ids},
 * the temporary {@code .ids.20000.PID.R.new.tmp} of a target {@code ids.20000} has one part too many
 * and is left alone (read loosely, 20000 would pass for a dead PID and a live build lose its file).
 * A temporary made for a temporary (a file published at a temporary's name) is named after
 * the real target, {@code .NAME.PID.RANDOM.PURPOSE.tmp}, not {@code ..NAME.PID.R.building.tmp.PID...}:
 * only then does a later command beside NAME find and sweep it after a kill -9.
 *
 * <p>A temporary is one file, not a name: it is created with {@code O_CREAT|O_EXCL} and then
 * written, forced and checked through the one channel opened at creation ({@link #channel()}); a
 * handle that needs a channel of its own (to map and seal the file) gets one opened through that
 * descriptor ({@link #reopen()}), never through the directory. Another process may rename a file
 * of its own over the hidden name at any moment; so just before the rename that publishes it, the
 * name is checked to still hold this file (device and inode, read from the descriptor), and after
 * it the target too: a file that is not this one is never sealed, forced or deleted here, and is
 * reported instead of published (docs/RELIABILITY.md, "Outputs bound to one descriptor", which
 * also says what window is left). Where there is no {@code /proc/self/fd} (not Linux), the name
 * is used as before and these checks are not made.
 */
public final class TemporaryFile implements AutoCloseable {
    private static final String SUFFIX = ".tmp";
    /** What follows {@code .NAME.} in a temporary's name: the PID, a random word, the purpose. */
    private static final Pattern AFTER_TARGET = Pattern.compile("(\\d{1,10})\\.[0-9a-z]{1,13}\\.[a-z]{1,16}\\.tmp");
    /** A whole temporary's name, to find the target a temporary stands for. */
    private static final Pattern TEMPORARY = Pattern.compile("\\.(.+)\\." + AFTER_TARGET.pattern());
    /** Temporaries of this JVM not yet published or deleted, by name. */
    private static final Map<Path, TemporaryFile> OPEN = new ConcurrentHashMap<>();
    /**
     * Held while a temporary is made and registered, and by the shutdown hook while it deletes.
     * Other threads run on while the hooks do, and the JVM halts as soon as the hooks end: without
     * it, a thread descheduled between making its file and registering it left the file behind
     * (seen under load, with SIGTERM). With it, the hook deletes a temporary made before it, and
     * none is made after it.
     */
    private static final Object CREATION = new Object();
    /** Set by the shutdown hook, under {@link #CREATION}: no temporary is made from then on. */
    private static boolean shuttingDown;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            synchronized (CREATION) {
                shuttingDown = true;
                OPEN.values().forEach(TemporaryFile::deleteIfThisFile);
            }
        }, "bloomstore-temporary-files"));
    }

    private final Path path;
    private final FileChannel channel;
    /** The descriptor's name under /proc/self/fd, which reaches this file whatever its own name holds; empty if none. */
    private final Optional<Path> descriptor;
    /** The file's device and inode, read through the descriptor; null where there is no descriptor name. */
    private final Object identity;
    private boolean done;

    private TemporaryFile(Path path, FileChannel channel) throws IOException {
        this.path = path;
        this.channel = channel;
        this.descriptor = DescriptorPath.of(channel);
        this.identity = descriptor.isPresent()
                ? Files.readAttributes(descriptor.get(), BasicFileAttributes.class).fileKey()
                : null;
    }

    /**
     * Creates an empty temporary beside {@code target}, first deleting the temporaries that
     * processes killed earlier left beside it.
     *
     * @param purpose a word of lower-case letters for people listing the directory ("new", "keys",
     *     "building")
     */
    public static TemporaryFile beside(Path target, String purpose) throws IOException {
        if (!purpose.matches("[a-z]{1,16}")) {
            throw new IllegalArgumentException("a temporary's purpose is 1 to 16 lower-case letters, not " + purpose);
        }
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        String prefix = "." + realTargetName(absolute.getFileName().toString()) + ".";
        requireDirectory(dir);
        deleteOrphans(dir, prefix);
        long pid = ProcessHandle.current().pid();
        while (true) {
            String random = Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
            Path path = dir.resolve(prefix + pid + "." + random + "." + purpose + SUFFIX);
            synchronized (CREATION) {
                if (shuttingDown) {
                    throw new IOException("the JVM is shutting down; nothing is written beside " + target);
                }
                FileChannel channel;
                try {
                    // O_CREAT|O_EXCL, mode 0666 less the umask: a file no one else made, and the only open of it by name
                    channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                            StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException taken) {
                    continue;
                } catch (FileSystemException refused) {
                    throw cannotCreate(target, dir, refused); // named after the user's file, not this hidden one
                }
                TemporaryFile temporary;
                try {
                    temporary = new TemporaryFile(path, channel);
                } catch (IOException | RuntimeException e) {
                    channel.close();
                    deleteQuietly(path);
                    throw e;
                }
                OPEN.put(path, temporary);
                return temporary;
            }
        }
    }

    /** The temporary's name, to list or to name in a message; its content is reached through {@link #channel()}. */
    public Path path() {
        return path;
    }

    /** The channel opened when the file was created, for reading and writing; closed by {@link #close()}. */
    public FileChannel channel() {
        return channel;
    }

    /**
     * A second channel on this file, read-write, for a handle that closes its own (a filter mapped
     * and sealed here): opened through this one's descriptor ({@link #reachable()}), so it is this
     * file whatever its name holds now.
     */
    public FileChannel reopen() throws IOException {
        return FileChannel.open(reachable(), StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /**
     * A name that reaches this very file while the temporary is open, for code that opens a file
     * by name (to read it back): its descriptor's, under /proc/self/fd, which names the file the
     * descriptor holds, not what the directory holds under the temporary's name; that name itself
     * where there is no descriptor name.
     */
    public Path reachable() {
        return descriptor.orElse(path);
    }

    /**
     * Forces the temporary's content to the device, then makes it {@code target}: by rename when
     * replacing; else by hard link, which fails if the target appeared meanwhile. Then forces the
     * directory, so the new name survives a power cut too. The temporary's name is checked to hold
     * this file just before, and the target just after.
     *
     * @param replace whether an existing target is replaced; if not, an existing target fails the
     *     call with {@link FileAlreadyExistsException} and is left as it was
     * @throws FileSystemException naming {@code target}, if another process put a file of its own
     *     under the temporary's name (nothing is published, and that file is left where it is) or
     *     at {@code target} as it was published
     */
    public void publishAs(Path target, boolean replace) throws IOException {
        channel.force(true);
        Path absolute = target.toAbsolutePath();
        if (replace) {
            FilterFiles.requireReplaceable(absolute); // again: it may have been made a link or a FIFO meanwhile
            copyPermissions(absolute, reachable());
            requireNameHoldsThisFile(target);
            Files.move(path, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            published();
        } else {
            requireNameHoldsThisFile(target);
            linkWithoutReplacing(absolute, target);
        }
        requireTargetHoldsThisFile(absolute, target);
        forceDirectory(absolute.getParent());
    }

    /** Closes the channel, and deletes the temporary unless it was published or its name no longer holds this file. */
    @Override
    public void close() {
        if (!done) {
            done = true;
            OPEN.remove(path);
            deleteIfThisFile();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing was left to write through it: the content was forced, or is being thrown away
        }
    }

    private void published() {
        done = true;
        OPEN.remove(path);
    }

    private void linkWithoutReplacing(Path absolute, Path target) throws IOException {
        try {
            Files.createLink(absolute, path); // atomic, and fails if a file appeared meanwhile
        } catch (FileAlreadyExistsException e) {
            throw FilterFiles.alreadyExists(target);
        } catch (UnsupportedOperationException | IOException e) {
            // No hard links here: check, then rename (a race with another creator remains possible).
            FilterFiles.requireAbsent(target);
            requireNameHoldsThisFile(target);
            Files.move(path, absolute, StandardCopyOption.ATOMIC_MOVE);
            published();
            return;
        }
        published();
        deleteIfThisFile();
    }

    /** Refuses to publish unless the temporary's name still holds this very file: else another process's file would be. */
    private void requireNameHoldsThisFile(Path target) throws FileSystemException {
        if (!holdsThisFile(path)) {
            String user = userFacing(target).toString();
            throw new FileSystemException(user, null, "not written: another process replaced or removed the hidden"
                    + " temporary file this command wrote it in, in " + target.toAbsolutePath().getParent() + ", so"
                    + " what that name holds now is not this command's output; " + user + " was left as it was;"
                    + " stop what else renames files there and run the command again");
        }
    }

    /** Reports a target that, just after the rename that published this file, holds another. */
    private void requireTargetHoldsThisFile(Path absolute, Path target) throws FileSystemException {
        if (!holdsThisFile(absolute)) {
            throw new FileSystemException(userFacing(target).toString(), null, "another process put a file of its own"
                    + " there as it was published, so it is not this command's output; check it and run the command"
                    + " again");
        }
    }

    /** Whether {@code name} itself (not a link it holds) is this file; true where identities are unknown. */
    private boolean holdsThisFile(Path name) {
        if (identity == null) {
            return true;
        }
        try {
            return identity.equals(Files.readAttributes(name, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                    .fileKey());
        } catch (IOException goneOrUnreadable) {
            return false;
        }
    }

    /** Deletes the temporary's name if it holds this file: a file another process renamed over it is not ours to delete. */
    private void deleteIfThisFile() {
        if (holdsThisFile(path)) {
            deleteQuietly(path);
        }
    }

    private static void copyPermissions(Path from, Path to) {
        try {
            Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
        } catch (IOException | UnsupportedOperationException absentOrNotPosix) {
            // a new target, or a file system without POSIX permissions: the defaults stand
        }
    }

    private static FileSystemException cannotCreate(Path target, Path dir, FileSystemException refused) {
        String file = userFacing(target).toString();
        String reason = "cannot create a file in " + dir + " (" + refused.getReason() + ")";
        FileSystemException named = refused instanceof AccessDeniedException
                ? new AccessDeniedException(file, null, reason)
                : new FileSystemException(file, null, reason);
        named.initCause(refused);
        return named;
    }

    /**
     * The file {@code path} stands for, to name in a message: itself, unless it is a temporary (a
     * build creates its filter inside one), then the target beside it that the user asked for.
     */
    public static Path userFacing(Path path) {
        Path name = path.getFileName();
        if (name == null) {
            return path;
        }
        String real = realTargetName(name.toString());
        return real.equals(name.toString()) ? path : path.resolveSibling(real);
    }

    /** The name of the target that {@code name} stands for: itself, unless it is a temporary's name. */
    static String realTargetName(String name) {
        Matcher temporary = TEMPORARY.matcher(name);
        return temporary.matches() ? temporary.group(1) : name;
    }

    /**
     * Refuses to write into {@code dir} when it is not there, saying it is a directory that is
     * missing: the JDK would name it with a bare "no such file", as if a file were meant.
     */
    static void requireDirectory(Path dir) throws NoSuchFileException {
        if (Files.notExists(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "no such directory; make it first (mkdir -p)");
        }
    }

    /** Deletes {@code .NAME.PID.RANDOM.PURPOSE.tmp} siblings whose process no longer runs. */
    private static void deleteOrphans(Path dir, String prefix) throws IOException {
        try (DirectoryStream<Path> siblings = Files.newDirectoryStream(dir, entry -> {
            String name = entry.getFileName().toString();
            return name.startsWith(prefix) && name.endsWith(SUFFIX);
        })) {
            for (Path sibling : siblings) {
                Matcher rest = AFTER_TARGET.matcher(sibling.getFileName().toString().substring(prefix.length()));
                if (rest.matches() && ProcessHandle.of(Long.parseLong(rest.group(1))).isEmpty()) {
                    deleteQuietly(sibling);
                }
            }
        }
    }

    private static void forceDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException ignored) {
            // Not every file system lets a directory be opened for force; the rename stands regardless.
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort: an error being reported, or the JVM ending, matters more
        }
    }
}

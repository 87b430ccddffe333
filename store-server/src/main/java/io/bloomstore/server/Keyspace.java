package io.bloomstore.server;

import io.bloomstore.Checkpoint;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The served folder: each key is one filter file in it ({@link KeyNames}), opened on first use and
 * kept open, one handle per file for every connection. Files other processes create are found
 * when a key is first asked for; a file they remove or replace is noticed by {@link #revalidate()}
 * (run every second), which drops the stale handle so the next command opens the file anew.
 */
final class Keyspace implements AutoCloseable {
    /** Makes a new filter file at a path (the file must not exist) and returns it open read-write. */
    interface Creator {
        MembershipFilter create(Path path) throws IOException;
    }

    private final Path dir;
    private final Clock clock;
    /** The open files by key ({@link #id}): a lookup costs no file-name encoding. */
    private final ConcurrentHashMap<String, Handle> open = new ConcurrentHashMap<>();

    Keyspace(Path dir, Clock clock) {
        this.dir = dir;
        this.clock = clock;
    }

    Path dir() {
        return dir;
    }

    Clock clock() {
        return clock;
    }

    Path path(byte[] key) throws RespError {
        return dir.resolve(KeyNames.fileName(key));
    }

    /** A key as the cache's map holds it: its bytes as Latin-1 characters (a copy, with no encoding). */
    static String id(byte[] key) {
        return new String(key, StandardCharsets.ISO_8859_1);
    }

    /** The key's filter, acquired (release it), or null if it has no file. */
    Handle find(byte[] key) throws RespError {
        String id = id(key);
        for (;;) {
            Handle handle = open.get(id);
            if (handle == null) {
                handle = openExisting(id, key);
                if (handle == null) {
                    return null;
                }
            }
            if (handle.acquire()) {
                return handle;
            }
            open.remove(id, handle); // closed under us: look again
        }
    }

    /**
     * One connection's last handle found. A connection's commands mostly name the key of the one
     * before (a pipeline of adds to one filter): the key's bytes compared with that handle's find
     * it with no string made, hashed and looked up in the map the event loops share. A handle
     * closed meanwhile (DEL, a file replaced behind the server) refuses its acquire, and the key is
     * looked up anew.
     */
    static final class Recent {
        private Handle handle;
    }

    /** As {@link #find(byte[])}, trying {@code recent}'s handle first; it then holds the handle found. */
    Handle find(byte[] key, Recent recent) throws RespError {
        Handle handle = recent.handle;
        if (handle != null && handle.named(key) && handle.acquire()) {
            return handle;
        }
        handle = find(key);
        if (handle != null) {
            recent.handle = handle;
        }
        return handle;
    }

    /** As {@link #findOrCreate(byte[], Creator)}, trying {@code recent}'s handle first; it then holds the handle found. */
    Handle findOrCreate(byte[] key, Creator creator, Recent recent) throws RespError {
        Handle handle = find(key, recent);
        if (handle == null) {
            handle = findOrCreate(key, creator);
            recent.handle = handle;
        }
        return handle;
    }

    /** The key's filter, created by {@code creator} if it has no file; acquired. */
    Handle findOrCreate(byte[] key, Creator creator) throws RespError {
        for (;;) {
            Handle handle = find(key);
            if (handle != null) {
                return handle;
            }
            handle = createNew(key, creator);
            if (handle != null && handle.acquire()) {
                return handle;
            }
        }
    }

    /**
     * Creates the key's filter with {@code creator}; acquired.
     *
     * @throws RespError {@code ERR item exists} if the key has a file
     */
    Handle create(byte[] key, Creator creator) throws RespError {
        Handle handle = find(key);
        if (handle != null) {
            handle.release();
            throw new RespError("ERR item exists");
        }
        handle = createNew(key, creator);
        if (handle == null || !handle.acquire()) {
            throw new RespError("ERR item exists");
        }
        return handle;
    }

    /** Creates the file; null if another process or connection made it first. */
    private Handle createNew(byte[] key, Creator creator) throws RespError {
        Path path = path(key);
        MembershipFilter filter;
        try {
            filter = creator.create(path);
        } catch (FileAlreadyExistsException e) {
            return null;
        } catch (IllegalArgumentException e) {
            throw new RespError("ERR " + e.getMessage());
        } catch (IOException | UncheckedIOException e) {
            throw new RespError("ERR cannot create " + path + ": " + e.getMessage());
        }
        String id = id(key);
        Handle handle = new Handle(id, path, filter, fileKey(path));
        Handle raced = open.putIfAbsent(id, handle);
        if (raced != null) {
            handle.closeWhenIdle();
            return raced;
        }
        return handle;
    }

    private Handle openExisting(String id, byte[] key) throws RespError {
        Path path = path(key);
        if (!Files.isRegularFile(path)) {
            return null;
        }
        RespError[] failure = new RespError[1];
        Handle handle = open.computeIfAbsent(id, n -> {
            try {
                return openFile(n, path);
            } catch (RespError e) {
                failure[0] = e;
                return null;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
        return handle;
    }

    private Handle openFile(String id, Path path) throws RespError {
        MembershipFilter filter;
        try {
            try {
                filter = MembershipFilter.open(path, OpenMode.READ_WRITE, clock);
            } catch (AccessDeniedException e) {
                filter = MembershipFilter.open(path, OpenMode.READ_ONLY, clock); // served for queries
            }
        } catch (NoSuchFileException e) {
            return null;
        } catch (InvalidFilterFileException e) {
            throw new RespError("WRONGTYPE " + path.getFileName() + " is not a bloomstore filter file: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw new RespError("ERR cannot open " + path + ": " + e.getMessage());
        }
        return new Handle(id, path, filter, fileKey(path));
    }

    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    /** Whether the key has a file. */
    boolean exists(byte[] key) throws RespError {
        return open.containsKey(id(key)) || Files.isRegularFile(path(key));
    }

    /** Deletes the key's file; false if it had none. Processes that map it keep their mapping. */
    boolean delete(byte[] key) throws RespError {
        Path path = path(key);
        forget(key);
        try {
            return Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new RespError("ERR cannot delete " + path + ": " + e.getMessage());
        }
    }

    /**
     * Renames the key's file to {@code target}'s name, atomically (RENAME, RENAMENX): the file's adds so
     * far are synced first, and the file under its new name is marked for the next sync, so its adds
     * keep the sync policy's promise. Processes that map either file keep their mapping.
     *
     * @param replace whether a file of {@code target} is replaced (RENAME) or kept, refusing the rename (RENAMENX)
     * @return false if {@code target} had a file and {@code replace} was not given: nothing changed
     * @throws RespError {@code ERR no such key} if {@code key} has no file
     */
    boolean rename(byte[] key, byte[] target, boolean replace) throws RespError {
        Path from = path(key);
        Path to = path(target);
        Handle source = find(key);
        if (source == null) {
            throw new RespError("ERR no such key");
        }
        try {
            source.filter.sync();
        } catch (IOException e) {
            throw new RespError("ERR cannot sync " + from + " before renaming it: " + e.getMessage());
        } finally {
            source.release();
        }
        if (from.equals(to)) {
            return replace;
        }
        forget(key);
        forget(target);
        try {
            place(from, to, replace);
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (NoSuchFileException e) {
            throw new RespError("ERR no such key");
        } catch (IOException e) {
            throw new RespError("ERR cannot rename " + from + " to " + to + ": " + e.getMessage());
        }
        Handle renamed = find(target);
        if (renamed != null) {
            renamed.markDirty(); // adds another connection made between the sync and the rename
            renamed.release();
        }
        return true;
    }

    /**
     * Copies the key's file to {@code target}'s name (COPY): a consistent copy of the live file, made
     * durable ({@link Checkpoint}) under a hidden name, then renamed into place atomically, so no
     * one ever opens a half-written copy.
     *
     * @param replace whether a file of {@code target} is replaced, or kept (nothing copied)
     * @return false if {@code key} has no file, or {@code target} has one and {@code replace} was not given
     */
    boolean copy(byte[] key, byte[] target, boolean replace) throws RespError {
        Path from = path(key);
        Path to = path(target);
        if (from.equals(to)) {
            throw new RespError("ERR source and destination objects are the same");
        }
        if (!Files.isRegularFile(from) || !replace && Files.exists(to)) {
            return false;
        }
        Path copy = dir.resolve(".copy-" + UUID.randomUUID() + ".tmp");
        try {
            Checkpoint.write(from, copy);
            forget(target);
            place(copy, to, replace);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (NoSuchFileException e) {
            return false; // the source was deleted meanwhile
        } catch (IOException | RuntimeException e) {
            throw new RespError("ERR cannot copy " + from.getFileName() + " to " + to.getFileName() + ": " + e.getMessage());
        } finally {
            try {
                Files.deleteIfExists(copy);
            } catch (IOException e) {
                System.err.println("bloomstore serve: cannot remove " + copy + ": " + e.getMessage());
            }
        }
    }

    /**
     * Moves {@code from} to {@code to} atomically, replacing a file there, or, if {@code replace} is
     * false, never: by a link, which fails where a rename would replace ({@link FileAlreadyExistsException}).
     */
    private static void place(Path from, Path to, boolean replace) throws IOException {
        if (replace) {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.createLink(to, from);
            Files.delete(from);
        }
    }

    /** Closes the key's handle, if open, so the next command opens whatever file the name holds by then. */
    void forget(byte[] key) throws RespError {
        Handle handle = open.remove(id(key));
        if (handle != null) {
            handle.closeWhenIdle();
        }
    }

    /** Every key with a file, sorted by file name. */
    List<byte[]> keys() throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + KeyNames.SUFFIX)) {
            for (Path file : files) {
                names.add(file.getFileName().toString());
            }
        }
        Collections.sort(names);
        List<byte[]> keys = new ArrayList<>(names.size());
        for (String name : names) {
            byte[] key = KeyNames.key(name);
            if (key != null && Files.isRegularFile(dir.resolve(name))) {
                keys.add(key);
            }
        }
        return keys;
    }

    int openCount() {
        return open.size();
    }

    /**
     * Forces every filter with adds since its last sync to the device.
     *
     * @return how many could not be synced (each is named on stderr and stays dirty, for the next try)
     */
    int syncDirty() {
        int failed = 0;
        for (Handle handle : open.values()) {
            if (handle.dirty && handle.acquire()) {
                try {
                    handle.dirty = false;
                    handle.filter.sync();
                } catch (IOException | RuntimeException e) {
                    handle.dirty = true;
                    failed++;
                    System.err.println("bloomstore serve: cannot sync " + handle.path + ": " + e.getMessage());
                } finally {
                    handle.release();
                }
            }
        }
        return failed;
    }

    /** Syncs one filter now (for {@code --sync always}). */
    static void syncNow(Handle handle) throws RespError {
        try {
            handle.filter.sync();
        } catch (IOException e) {
            throw new RespError("ERR cannot sync " + handle.path + ": " + e.getMessage());
        }
    }

    /** Drops the handles of files removed or replaced by other processes since they were opened. */
    void revalidate() {
        for (Handle handle : open.values()) {
            Object now = fileKey(handle.path);
            if (now == null || !Objects.equals(now, handle.fileKey)) {
                if (open.remove(handle.id, handle)) {
                    if (handle.dirty) {
                        syncQuietly(handle);
                    }
                    handle.closeWhenIdle();
                }
            }
        }
    }

    private static void syncQuietly(Handle handle) {
        try {
            handle.filter.sync();
        } catch (IOException | RuntimeException e) {
            System.err.println("bloomstore serve: cannot sync " + handle.path + ": " + e.getMessage());
        }
    }

    /** Syncs and closes every open filter. */
    @Override
    public void close() {
        for (Handle handle : open.values()) {
            if (open.remove(handle.id, handle)) {
                syncQuietly(handle);
                handle.closeWhenIdle();
            }
        }
    }
}

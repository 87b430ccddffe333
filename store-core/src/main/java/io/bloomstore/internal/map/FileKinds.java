package io.bloomstore.internal.map;

import io.bloomstore.FilterKind;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.FilterFileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which {@link FilterKind} a file is, from its first bytes (docs/FORMAT.md): the one place that
 * decides whether a file is read as version 1, as a segmented version 2 file, or as a Bloomier map
 * (version 5). It lives with the map's header because it is the one package that sees every
 * kind's header.
 */
public final class FileKinds {
    private FileKinds() {
    }

    /**
     * The kind of the file at {@code path}, from its first bytes, without checking or mapping it:
     * {@link FilterKind#MAP} for a version 5 file, {@link FilterKind#FIXED} for anything that is
     * neither a version 2 nor a version 5 file (a damaged or foreign file is then reported by the
     * fixed filter's checks, as {@code MembershipFilter.open} does).
     *
     * @param path the file; a missing file or a directory is {@link FilterKind#FIXED}, for the fixed filter's open to report
     * @return the kind, never null
     * @throws IOException if the file exists but cannot be read
     */
    public static FilterKind of(Path path) throws IOException {
        byte[] start = new byte[FilterFileDescriptor.HEADER_LENGTH];
        int read = 0;
        if (Files.isRegularFile(path)) {
            try (InputStream in = Files.newInputStream(path)) {
                read = in.readNBytes(start, 0, start.length);
            }
        }
        return of(start, read);
    }

    /**
     * The kind of the file open on {@code channel}, as {@link #of(Path)} tells it: what the
     * one-descriptor openers (open, merge, pack) read before they check and map the same file.
     */
    public static FilterKind of(FileChannel channel) throws IOException {
        byte[] start = CheckedFile.readAt(channel, 0, FilterFileDescriptor.HEADER_LENGTH);
        return of(start, start.length);
    }

    /**
     * The kind of a file whose first {@code read} bytes are {@code start}: version 2 is segmented,
     * and its kind byte says which (any other kind byte is reported by the container header's
     * check, which a growing file's open runs).
     */
    public static FilterKind of(byte[] start, int read) {
        if (read > FilterFileDescriptor.VERSION_OFFSET + 1 && start[FilterFileDescriptor.VERSION_OFFSET] == MapHeader.FORMAT_VERSION
                && start[FilterFileDescriptor.VERSION_OFFSET + 1] == 0) {
            return FilterKind.MAP;
        }
        boolean segmented = read > ContainerDescriptor.KIND_OFFSET
                && (start[FilterFileDescriptor.VERSION_OFFSET] & 0xFF) == ContainerDescriptor.FORMAT_VERSION
                && start[FilterFileDescriptor.VERSION_OFFSET + 1] == 0;
        if (!segmented) {
            return FilterKind.FIXED;
        }
        return start[ContainerDescriptor.KIND_OFFSET] == ContainerDescriptor.KIND_WINDOWED ? FilterKind.WINDOWED : FilterKind.GROWING;
    }
}

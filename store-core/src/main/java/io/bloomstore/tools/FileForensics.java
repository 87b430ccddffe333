package io.bloomstore.tools;

import io.bloomstore.FilterKind;
import io.bloomstore.internal.map.FileKinds;
import java.io.IOException;
import java.nio.file.Path;

/** What a file is, read without opening it as a filter: for commands that must decide before they open it. */
public final class FileForensics {
    private FileForensics() {
    }

    /**
     * The kind of the file at {@code path}, from its first bytes, without checking or mapping it:
     * {@link FilterKind#MAP} for a version 5 file, {@link FilterKind#FIXED} for anything that is
     * neither a version 2 nor a version 5 file (a damaged or foreign file is then reported by the
     * fixed filter's checks when it is opened).
     *
     * @param path the file; a missing file or a directory is {@link FilterKind#FIXED}, for the open that follows to report
     * @return the kind, never null
     * @throws IOException if the file exists but cannot be read
     */
    public static FilterKind kind(Path path) throws IOException {
        return FileKinds.of(path);
    }
}

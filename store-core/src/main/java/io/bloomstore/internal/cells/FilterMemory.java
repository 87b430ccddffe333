package io.bloomstore.internal.cells;

import java.io.IOException;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The memory a filter file's bytes are used in, byte 0 the file's first: the file's own mapping
 * ({@link FileMapping}), which every process that maps the file shares, or an image in anonymous
 * memory that one builder alone fills and then writes to the file in a single pass
 * ({@link AnonymousImage}).
 */
public interface FilterMemory extends AutoCloseable {
    /** The file's bytes, byte 0 its first; valid until {@link #close()}. */
    BytesStore<?, ?> store();

    boolean readOnly();

    /** Puts every change made so far on the device, and waits for it. */
    void sync() throws IOException;

    /** Gives the memory back; a use after this fails or sees nothing. */
    @Override
    void close();
}

package io.bloomstore;

import java.time.Instant;
import java.util.OptionalLong;

/**
 * What a filter file's header says about it (docs/FORMAT.md): its format, shape and layout on
 * disk, from an open filter by {@link BloomFilter#info()} (or {@link FilterShape.Fixed#info()}), or
 * from what an import wrote; the header has been checked.
 *
 * @param formatVersion the file format version: {@link #SUPPORTED_FORMAT_VERSION}, or 1 for a file
 *     written before the file identity (read, verified, merged and packed as before)
 * @param headerLength the header's length in bytes
 * @param headerCrc32c the header's CRC32C as stored in the file
 * @param created when the file was created
 * @param sparse whether the cells were created without allocating them on disk
 * @param cellsOffset where the cells start in the file, in bytes
 * @param cellsLength the cells' length in bytes
 * @param fileLength the file's exact length: the cells' end
 * @param spec the filter's shape
 * @param fileIdentity the random identity the file was created with, which binds its header to its
 *     state and cells (docs/FORMAT.md); empty for a version 1 file, which has none
 */
public record FilterFileInfo(
        int formatVersion,
        int headerLength,
        int headerCrc32c,
        Instant created,
        boolean sparse,
        long cellsOffset,
        long cellsLength,
        long fileLength,
        BloomSpec spec,
        OptionalLong fileIdentity) {

    /** The file format version this library writes for a fixed filter; it reads version 1 files too. */
    // FilterFileDescriptor.FORMAT_VERSION, written out: a value type loads no class of the format (Layering);
    // FilterFileInfoTest checks that a new file carries it
    public static final int SUPPORTED_FORMAT_VERSION = 3;
}

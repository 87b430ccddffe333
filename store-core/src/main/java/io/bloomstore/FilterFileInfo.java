package io.bloomstore;

import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import java.time.Instant;

/**
 * What a filter file's header says about it (docs/FORMAT.md): its format, shape and layout on
 * disk. Read by {@link BloomFilter#readInfo(java.nio.file.Path)} without mapping the file, or from
 * an open filter by {@link BloomFilter#info()}; either way the header has been checked.
 *
 * @param formatVersion the file format version (this library reads {@link #SUPPORTED_FORMAT_VERSION})
 * @param headerLength the header's length in bytes
 * @param headerCrc32c the header's CRC32C as stored in the file
 * @param created when the file was created
 * @param sparse whether the cells were created without allocating them on disk
 * @param cellsOffset where the cells start in the file, in bytes
 * @param cellsLength the cells' length in bytes
 * @param fileLength the file's exact length: the cells' end
 * @param spec the filter's shape
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
        BloomSpec spec) {

    /** The file format version this library reads and writes. */
    public static final int SUPPORTED_FORMAT_VERSION = FilterFileDescriptor.FORMAT_VERSION;

    static FilterFileInfo of(FilterHeader header) {
        return new FilterFileInfo(FilterFileDescriptor.FORMAT_VERSION, FilterFileDescriptor.HEADER_LENGTH,
                header.crc32c(), Instant.ofEpochMilli(header.createdMillis()), header.sparse(),
                FilterFileDescriptor.CELLS_START, header.spec().cellBytes(), header.fileLength(), header.spec());
    }
}

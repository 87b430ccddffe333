package io.bloomstore.cli;

import static io.bloomstore.internal.format.FilterFileDescriptor.CELLS_CHECKSUM_OFFSET;
import static io.bloomstore.internal.format.FilterFileDescriptor.HEADER_CRC_OFFSET;

import io.bloomstore.BloomFilter;
import io.bloomstore.FilterStats;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.BloomSpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Locale;

/**
 * Everything {@code inspect} tells about a filter file: every header field, the mutable state, and
 * statistics from one scan of the cells. Its components are the JSON output's fields, in order;
 * values that do not exist are null (n and p of a filter sized by m and k, the checksum of an
 * unsealed filter, the key estimate of a full filter).
 */
record FilterReport(
        String file,
        long fileBytes,
        String magic,
        int formatVersion,
        int headerBytes,
        String headerCrc32c,
        String layout,
        String hashAlgorithm,
        String seed,
        long cells,
        int counterBits,
        int hashes,
        Long expectedKeys,
        Double targetFpp,
        String created,
        long createdMillis,
        boolean sparse,
        long cellsOffset,
        long cellsBytes,
        long approximateInsertions,
        int openWriters,
        boolean sealed,
        String cellsChecksum,
        long setCells,
        double fillRatio,
        Double estimatedKeys,
        double currentFpp) {

    /** Reports on an open filter; scans its cells once. */
    static FilterReport of(Path file, BloomFilter filter) throws IOException {
        FilterHeader header = filter.header();
        BloomSpec spec = header.spec();
        FilterStats stats = filter.stats();
        boolean sealed = filter.isSealed();
        ByteBuffer raw = rawHeaderAndState(file);
        return new FilterReport(
                file.toString(),
                Files.size(file),
                "BLOOMSTR",
                FilterFileDescriptor.FORMAT_VERSION,
                FilterFileDescriptor.HEADER_LENGTH,
                String.format(Locale.ROOT, "0x%08x", raw.getInt(HEADER_CRC_OFFSET)),
                Human.name(spec.layout()),
                spec.hashAlgorithm().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                Human.seed(spec.seed()),
                spec.cells(),
                spec.counterBits(),
                spec.hashes(),
                spec.expectedKeys() > 0 ? spec.expectedKeys() : null,
                spec.targetFpp() > 0 ? spec.targetFpp() : null,
                Instant.ofEpochMilli(header.createdMillis()).toString(),
                header.createdMillis(),
                header.sparse(),
                FilterFileDescriptor.CELLS_START,
                spec.cellBytes(),
                stats.approximateInsertions(),
                filter.openWriters(),
                sealed,
                sealed ? String.format(Locale.ROOT, "0x%016x", raw.getLong(CELLS_CHECKSUM_OFFSET)) : null,
                stats.setCells(),
                stats.fillRatio(),
                Double.isFinite(stats.estimatedKeys()) ? stats.estimatedKeys() : null,
                stats.currentFpp());
    }

    /**
     * The header's stored CRC and the sealed cells checksum, which the filter API does not expose:
     * read from the file at their documented offsets (the header has just been validated).
     */
    private static ByteBuffer rawHeaderAndState(Path file) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(CELLS_CHECKSUM_OFFSET + Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) >= 0) {
                // read until full
            }
        }
        return bytes;
    }
}

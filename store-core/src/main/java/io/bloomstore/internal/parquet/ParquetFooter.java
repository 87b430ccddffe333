package io.bloomstore.internal.parquet;

import io.bloomstore.internal.parquet.CompactThrift.MalformedThriftException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The column chunks of a Parquet file, read from its footer (parquet-format: the Thrift compact
 * {@code FileMetaData}, its length as a little-endian u32, then {@code PAR1}) and nothing else of
 * the file. Only the fields that locate a column's Bloom filters are kept.
 */
public final class ParquetFooter {
    /** Magic of a file with a plaintext footer. */
    private static final int PAR1 = 0x31524150;
    /** Magic of a file whose footer is encrypted. */
    private static final int PARE = 0x45524150;
    private static final int TAIL = 8;

    // Field ids of parquet-format's parquet.thrift.
    private static final int FILE_ROW_GROUPS = 4;
    private static final int ROW_GROUP_COLUMNS = 1;
    private static final int CHUNK_FILE_PATH = 1;
    private static final int CHUNK_META_DATA = 3;
    private static final int CHUNK_CRYPTO_META_DATA = 8;
    private static final int META_TYPE = 1;
    private static final int META_PATH_IN_SCHEMA = 3;
    private static final int META_BLOOM_FILTER_OFFSET = 14;
    private static final int META_BLOOM_FILTER_LENGTH = 15;

    private ParquetFooter() {
    }

    /**
     * One column chunk: its column's dotted path and physical type id, where its Bloom filter is
     * ({@code filterOffset} -1 when it has none, {@code filterLength} -1 when the writer did not
     * record it), whether it is encrypted, and the other file it lives in, if any (else null).
     */
    public record ColumnChunk(int rowGroup, String path, int type, long filterOffset, int filterLength,
            boolean encrypted, String otherFile) {
    }

    /** The footer's column chunks, row group by row group, and the bytes read to get them. */
    public record Footer(List<List<ColumnChunk>> rowGroups, long bytesRead) {
    }

    /**
     * Reads the footer of the Parquet file open as {@code channel}.
     *
     * @param file the file's name, for messages
     * @throws DamagedParquetException if the file is too short, has no Parquet magic at its end, an
     *     encrypted footer, a footer length past its start, or a footer that is not well-formed
     */
    public static Footer read(Path file, FileChannel channel) throws IOException {
        long size = channel.size();
        if (size < TAIL + 4) {
            throw new DamagedParquetException(file, "only " + size + " bytes, too short for a Parquet file");
        }
        ByteBuffer tail = readAt(file, channel, size - TAIL, TAIL);
        int footerLength = tail.getInt(0);
        int magic = tail.getInt(4);
        if (magic == PARE) {
            throw new DamagedParquetException(file, "its footer is encrypted (magic PARE), which bloomstore cannot read");
        }
        if (magic != PAR1) {
            throw new DamagedParquetException(file, "no PAR1 magic at its end (truncated, or not a Parquet file)");
        }
        if (footerLength <= 0 || footerLength > size - TAIL - 4) {
            throw new DamagedParquetException(file, "its footer length " + Integer.toUnsignedString(footerLength)
                    + " does not fit in its " + size + " bytes (truncated?)");
        }
        ByteBuffer footer = readAt(file, channel, size - TAIL - footerLength, footerLength);
        Map<Integer, Object> meta;
        try {
            meta = CompactThrift.readStruct(footer).fields();
        } catch (MalformedThriftException e) {
            throw new DamagedParquetException(file, "its footer is not well-formed (" + e.getMessage() + ")");
        }
        List<List<ColumnChunk>> rowGroups = new ArrayList<>();
        for (Object group : list(file, meta, FILE_ROW_GROUPS)) {
            List<ColumnChunk> chunks = new ArrayList<>();
            for (Object chunk : list(file, struct(file, group), ROW_GROUP_COLUMNS)) {
                chunks.add(chunk(file, rowGroups.size(), struct(file, chunk)));
            }
            rowGroups.add(chunks);
        }
        return new Footer(rowGroups, TAIL + (long) footerLength);
    }

    private static ColumnChunk chunk(Path file, int rowGroup, Map<Integer, Object> chunk) throws DamagedParquetException {
        Object filePath = chunk.get(CHUNK_FILE_PATH);
        String otherFile = filePath instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : null;
        Object metaData = chunk.get(CHUNK_META_DATA);
        boolean encrypted = chunk.containsKey(CHUNK_CRYPTO_META_DATA);
        if (metaData == null) {
            // an encrypted column's metadata is in encrypted_column_metadata, unreadable without its key
            return new ColumnChunk(rowGroup, null, -1, -1, -1, true, otherFile);
        }
        Map<Integer, Object> meta = struct(file, metaData);
        List<String> path = new ArrayList<>();
        for (Object part : list(file, meta, META_PATH_IN_SCHEMA)) {
            if (!(part instanceof byte[] name)) {
                throw new DamagedParquetException(file, "a column path holds a " + part.getClass().getSimpleName());
            }
            path.add(new String(name, StandardCharsets.UTF_8));
        }
        return new ColumnChunk(rowGroup, String.join(".", path), (int) integer(meta, META_TYPE, -1),
                integer(meta, META_BLOOM_FILTER_OFFSET, -1), (int) integer(meta, META_BLOOM_FILTER_LENGTH, -1),
                encrypted, otherFile);
    }

    /** Reads exactly {@code length} bytes at {@code position}, little-endian. */
    public static ByteBuffer readAt(Path file, FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new EOFException(file + ": ended at byte " + (position + buffer.position()) + " while reading "
                        + length + " bytes from " + position + " (was it truncated while being read?)");
            }
        }
        return buffer.flip();
    }

    private static List<?> list(Path file, Map<Integer, Object> struct, int field) throws DamagedParquetException {
        Object value = struct.get(field);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw new DamagedParquetException(file, "footer field " + field + " is not a list");
        }
        return list;
    }

    @SuppressWarnings("unchecked")
    private static Map<Integer, Object> struct(Path file, Object value) throws DamagedParquetException {
        if (!(value instanceof Map<?, ?>)) {
            throw new DamagedParquetException(file, "the footer holds a " + value.getClass().getSimpleName()
                    + " where a structure belongs");
        }
        return (Map<Integer, Object>) value;
    }

    private static long integer(Map<Integer, Object> struct, int field, long absent) {
        return struct.get(field) instanceof Long value ? value : absent;
    }
}

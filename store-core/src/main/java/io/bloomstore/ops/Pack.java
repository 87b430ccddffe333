package io.bloomstore.ops;

import io.bloomstore.filter.BloomFilter;
import io.bloomstore.filter.FilterFiles;
import io.bloomstore.format.FilterFileDescriptor;
import io.bloomstore.format.FilterHeader;
import io.bloomstore.format.InvalidFilterFileException;
import io.bloomstore.format.InvalidFilterFileException.Problem;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;

/**
 * A filter file as one self-describing, checksummed LZ4 frame, for shipping and backup.
 *
 * <pre>
 *   LZ4 frame (content size, block and content xxHash32 checksums, 4 MiB blocks), holding:
 *     u64  pack magic "BLMSPACK"
 *     u32  pack version (1)
 *     u32  reserved (0)
 *     u64  file length L
 *     L bytes: the filter file, byte for byte (header page, then cells)
 * </pre>
 *
 * Unpacking checks the magic, the filter header (as opening would), the length and both LZ4
 * checksums before the restored file appears; damaged input leaves no file behind.
 */
public final class Pack {
    /** "BLMSPACK" read as a little-endian u64. */
    public static final long PACK_MAGIC = 0x4B434150534D4C42L;
    public static final int PACK_VERSION = 1;
    private static final int PREAMBLE_LENGTH = 24;
    private static final int BUFFER = 1 << 20;

    private Pack() {
    }

    /**
     * Writes {@code filter}'s file to {@code out} as a pack. The file is read through a channel; if
     * others are adding meanwhile the pack holds some of their adds, never a torn header.
     *
     * @param progress called with bytes packed so far, or null
     * @return the file length packed
     */
    public static long pack(Path filter, OutputStream out, LongConsumer progress) throws IOException {
        FilterHeader header = BloomFilter.readHeader(filter);
        long length = header.fileLength();
        ByteBuffer preamble = ByteBuffer.allocate(PREAMBLE_LENGTH).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(PACK_MAGIC).putInt(PACK_VERSION).putInt(0).putLong(length);
        LZ4FrameOutputStream lz4 = new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_4MB,
                PREAMBLE_LENGTH + length, LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM, LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM,
                LZ4FrameOutputStream.FLG.Bits.CONTENT_SIZE);
        lz4.write(preamble.array());
        try (FileChannel channel = FileChannel.open(filter, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
            long done = 0;
            while (done < length) {
                buffer.clear().limit((int) Math.min(BUFFER, length - done));
                int n = channel.read(buffer, done);
                if (n < 0) {
                    throw new EOFException(filter + " shrank while it was being packed");
                }
                lz4.write(buffer.array(), 0, n);
                done += n;
                if (progress != null) {
                    progress.accept(done);
                }
            }
        }
        lz4.close(); // writes the end mark and content checksum; closes out
        return length;
    }

    /**
     * Restores the filter packed in {@code in} to {@code target}, atomically.
     *
     * @param source how to name the input in messages (a path, or "stdin")
     * @throws InvalidFilterFileException with {@link Problem#BAD_PACK} if the input is not a
     *     bloomstore pack or is damaged, or another problem if the packed header is bad
     */
    public static FilterHeader unpack(InputStream in, String source, Path target, boolean replace, LongConsumer progress)
            throws IOException {
        Path sourcePath = Path.of(source);
        FilterHeader[] restored = new FilterHeader[1];
        FilterFiles.publish(target, replace, (channel, temporary) -> {
            try {
                DataInputStream data = new DataInputStream(new LZ4FrameInputStream(in, true));
                byte[] preambleBytes = new byte[PREAMBLE_LENGTH];
                data.readFully(preambleBytes);
                ByteBuffer preamble = ByteBuffer.wrap(preambleBytes).order(ByteOrder.LITTLE_ENDIAN);
                if (preamble.getLong() != PACK_MAGIC) {
                    throw new InvalidFilterFileException(sourcePath, Problem.BAD_PACK, "not a bloomstore pack (no BLMSPACK magic)");
                }
                int version = preamble.getInt();
                if (version != PACK_VERSION) {
                    throw new InvalidFilterFileException(sourcePath, Problem.UNSUPPORTED_VERSION,
                            "pack version " + version + " is not supported (this bloomstore reads " + PACK_VERSION + ")");
                }
                preamble.getInt();
                long length = preamble.getLong();
                byte[] page = new byte[FilterFileDescriptor.CELLS_START];
                data.readFully(page);
                restored[0] = FilterHeader.decode(sourcePath, page, length);
                FilterFiles.writeFully(channel, ByteBuffer.wrap(page));
                byte[] buffer = new byte[BUFFER];
                long done = page.length;
                while (done < length) {
                    int n = data.read(buffer, 0, (int) Math.min(BUFFER, length - done));
                    if (n < 0) {
                        throw new EOFException("ends after " + done + " of " + length + " bytes");
                    }
                    FilterFiles.writeFully(channel, ByteBuffer.wrap(buffer, 0, n));
                    done += n;
                    if (progress != null) {
                        progress.accept(done);
                    }
                }
                if (data.read() != -1) { // also makes the frame check its end mark and content checksum
                    throw new IOException("has data after the " + length + " bytes it announced");
                }
                if (in.read() != -1) { // the frame reader stops at its end mark and would ignore the rest
                    throw new IOException("has data after the end of the LZ4 frame");
                }
            } catch (InvalidFilterFileException e) {
                throw e;
            } catch (IOException e) {
                throw new InvalidFilterFileException(sourcePath, Problem.BAD_PACK,
                        "damaged or truncated pack (" + e.getMessage() + "); nothing was written", e);
            }
        });
        return restored[0];
    }
}

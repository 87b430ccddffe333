package io.bloomstore;

import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.InvalidFilterFileException.Problem;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
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
     * Writes {@code filter}'s file as a pack to the file {@code target}, atomically: the pack
     * appears under its name only when complete, and a failure leaves nothing.
     *
     * @param replace whether an existing target is replaced; if not, an existing target fails the
     *     call with {@link java.nio.file.FileAlreadyExistsException} and is left untouched
     * @param progress called with bytes packed so far, or null
     * @return the file length packed
     */
    public static long packTo(Path filter, Path target, boolean replace, LongConsumer progress) throws IOException {
        long[] length = new long[1];
        FilterFiles.publish(target, replace, 0, (channel, temporary) ->
                length[0] = pack(filter, Channels.newOutputStream(channel), progress));
        return length[0];
    }

    /**
     * Restores the filter packed in {@code in} to {@code target}, atomically.
     *
     * @param source how to name the input in messages (a path, or "stdin")
     * @return what the restored file's header says
     * @throws InvalidFilterFileException with {@link Problem#BAD_PACK} if the input is not a
     *     bloomstore pack or is damaged, or another problem if the packed header is bad
     */
    public static FilterFileInfo unpack(InputStream in, String source, Path target, boolean replace, LongConsumer progress)
            throws IOException {
        Path sourcePath = Path.of(source);
        FilterHeader[] restored = new FilterHeader[1];
        FilterFiles.publish(target, replace, 0, (channel, temporary) -> {
            PackReader pack = new PackReader(in, sourcePath);
            ByteBuffer preamble = ByteBuffer.wrap(pack.readFully(PREAMBLE_LENGTH)).order(ByteOrder.LITTLE_ENDIAN);
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
            byte[] page = pack.readFully(FilterFileDescriptor.CELLS_START);
            restored[0] = FilterHeader.decode(sourcePath, page, length);
            FilterFiles.writeFully(channel, ByteBuffer.wrap(page));
            byte[] buffer = new byte[BUFFER];
            for (long done = page.length; done < length; ) {
                int n = pack.read(buffer, (int) Math.min(BUFFER, length - done), done, length);
                FilterFiles.writeFully(channel, ByteBuffer.wrap(buffer, 0, n));
                done += n;
                if (progress != null) {
                    progress.accept(done);
                }
            }
            pack.requireEnd(length);
        });
        return FilterFileInfo.of(restored[0]);
    }

    /**
     * The reading side of unpack: every failure to read is the pack's fault (damaged, truncated, not
     * a pack), reported as {@link Problem#BAD_PACK}; failures to write the target are not, and stay
     * out of here.
     */
    private static final class PackReader {
        private final InputStream raw;
        private final Path source;
        private DataInputStream data;

        PackReader(InputStream raw, Path source) {
            this.raw = raw;
            this.source = source;
        }

        byte[] readFully(int length) throws InvalidFilterFileException {
            byte[] bytes = new byte[length];
            try {
                frame().readFully(bytes);
            } catch (IOException e) {
                throw damaged(e);
            }
            return bytes;
        }

        /** Reads 1 to {@code max} bytes of the {@code length} announced, {@code done} read so far. */
        int read(byte[] buffer, int max, long done, long length) throws InvalidFilterFileException {
            try {
                int n = frame().read(buffer, 0, max);
                if (n < 0) {
                    throw new EOFException("ends after " + done + " of " + length + " bytes");
                }
                return n;
            } catch (IOException e) {
                throw damaged(e);
            }
        }

        /** Checks that the pack ends after the announced {@code length} bytes, its checksums with it. */
        void requireEnd(long length) throws InvalidFilterFileException {
            try {
                if (frame().read() != -1) { // also makes the frame check its end mark and content checksum
                    throw new IOException("has data after the " + length + " bytes it announced");
                }
                if (raw.read() != -1) { // the frame reader stops at its end mark and would ignore the rest
                    throw new IOException("has data after the end of the LZ4 frame");
                }
            } catch (IOException e) {
                throw damaged(e);
            }
        }

        private DataInputStream frame() throws IOException {
            if (data == null) {
                data = new DataInputStream(new LZ4FrameInputStream(raw, true));
            }
            return data;
        }

        private InvalidFilterFileException damaged(IOException e) {
            if (e instanceof InvalidFilterFileException invalid) {
                return invalid;
            }
            return new InvalidFilterFileException(source, Problem.BAD_PACK,
                    "damaged or truncated pack (" + e.getMessage() + "); nothing was written", e);
        }
    }
}

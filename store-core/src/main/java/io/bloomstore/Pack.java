package io.bloomstore;

import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.map.FileKinds;
import io.bloomstore.internal.map.MapHeader;
import io.bloomstore.internal.segment.ContainerImage;
import io.bloomstore.InvalidFilterFileException.Problem;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jpountz.lz4.LZ4Exception;
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
 *     L bytes: the filter file, byte for byte (a fixed filter's header page and cells, or a
 *              growing or windowed file's container page and regions)
 * </pre>
 *
 * Unpacking checks the magic, the filter's headers (as opening would: a fixed filter's header, or
 * a segmented file's container header, region table and each published region's own header), the
 * length and both LZ4 checksums before the restored file appears; damaged input leaves no file
 * behind. docs/FORMAT.md, "Pack stream", says what a pack of a file in use holds.
 */
public final class Pack {
    /** "BLMSPACK" read as a little-endian u64. */
    public static final long PACK_MAGIC = 0x4B434150534D4C42L;
    /** The version of the pack format this code writes and reads (docs/FORMAT.md, "Pack"). */
    public static final int PACK_VERSION = 1;
    private static final int PREAMBLE_LENGTH = 24;
    private static final int BUFFER = 1 << 20;
    /** How often {@link #packTo} packs a sealed filter whose seal keeps being withdrawn or renewed under it. */
    private static final int SEAL_ATTEMPTS = 3;

    private Pack() {
    }

    /**
     * Writes {@code filter}'s file (of any kind) to {@code out} as a pack. The file is opened once,
     * and its kind, its headers, its length and every byte packed are read through that one
     * descriptor: a file renamed over the path meanwhile is packed whole or refused, never checked
     * as one file and copied from another. The file is checked first as opening and {@code verify}
     * check it: a damaged file is refused, never packed. If others are adding meanwhile the pack
     * holds some of their adds, never a torn header. A growing or windowed file's container page is
     * read first, once no growth or rotation holds its step lock, and fixes what the pack holds: the
     * segments it publishes (a growth published later is left out) or the epochs of the slots; a slot
     * that a rotation reuses while it is packed is packed, under its old epoch, with only keys of that
     * epoch (which has left the window), or none, however short the epochs.
     *
     * <p>A sealed fixed filter's header page goes out first, seal and all, so the seal must still
     * stand, unchanged, once every cell has been read: a handle opened for writing withdraws it
     * before it changes a cell, so then the cells packed are the sealed ones. If it was withdrawn
     * or replaced meanwhile, the pack would restore to a file whose cells fail their checksum:
     * the frame is left without its end instead (unpacking it fails), and
     * {@link #packTo} packs again, from the file as it is then (unsealed).
     *
     * @param filter the filter file to pack; it may be open, and added to, elsewhere
     * @param out where the pack goes; closed once the pack is complete, left open if it fails
     * @return the file length packed
     * @throws IllegalStateException if a sealed fixed filter was opened for writing (or sealed anew)
     *     while it was packed: then the frame is left without its end, so that unpacking what was
     *     written fails; pack it again
     * @throws InvalidFilterFileException if the file is damaged (as {@code verify} finds) or not a filter
     * @throws IOException if the file cannot be read or {@code out} written, or a live process holds a growing or windowed file's step lock too long (stopped, or running for 60 s)
     */
    public static long pack(Path filter, OutputStream out) throws IOException {
        return packStream(filter, out, null);
    }

    /**
     * {@link #pack(Path, OutputStream)}, telling {@code progress} how far it got.
     *
     * @param filter the filter file to pack
     * @param out where the pack goes, as {@link #pack(Path, OutputStream)} takes it
     * @param progress called with bytes packed so far
     * @return the file length packed
     * @throws IOException as {@link #pack(Path, OutputStream)} throws it
     */
    public static long pack(Path filter, OutputStream out, LongConsumer progress) throws IOException {
        return packStream(filter, out, Objects.requireNonNull(progress, "progress"));
    }

    /** The pack of {@code filter} to {@code out}; {@code progress} may be null. */
    private static long packStream(Path filter, OutputStream out, LongConsumer progress) throws IOException {
        try (LiveFileRead file = LiveFileRead.open(filter)) {
            byte[] page = file.firstPage();
            long length = file.length();
            ByteBuffer preamble = ByteBuffer.allocate(PREAMBLE_LENGTH).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(PACK_MAGIC).putInt(PACK_VERSION).putInt(0).putLong(length);
            LZ4FrameOutputStream lz4 = new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_4MB,
                    PREAMBLE_LENGTH + length, LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                    LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM, LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM,
                    LZ4FrameOutputStream.FLG.Bits.CONTENT_SIZE);
            lz4.write(preamble.array());
            lz4.write(page);
            ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
            for (long done = page.length; done < length; ) {
                buffer.clear().limit((int) Math.min(BUFFER, length - done));
                int n = file.read(buffer, done);
                lz4.write(buffer.array(), 0, n);
                done += n;
                if (progress != null) {
                    progress.accept(done);
                }
            }
            if (file.sealWithdrawn()) {
                throw new SealWithdrawnException(filter + ": was opened for writing while it was being packed, so its "
                        + "cells may no longer match the sealed header already packed; the pack was left unfinished "
                        + "(unpacking it fails): pack it again");
            }
            lz4.close(); // writes the end mark and content checksum; closes out
            return length;
        }
    }

    /** A sealed filter's seal did not stand through its pack: {@link #packTo} packs it again. */
    private static final class SealWithdrawnException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        SealWithdrawnException(String message) {
            super(message);
        }
    }

    /**
     * Writes {@code filter}'s file as a pack to the file {@code target}, atomically: the pack
     * appears under its name only when complete, and a failure leaves nothing.
     *
     * @param filter the filter file to pack
     * @param target the pack file to write; its directory must exist
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing target; without it an
     *     existing target fails the call with {@link java.nio.file.FileAlreadyExistsException} and is
     *     left untouched
     * @return the file length packed
     * @throws IOException as {@link #pack(Path, OutputStream)}, or if {@code target} cannot be written
     * @throws IllegalArgumentException if {@code options} hold {@link CreateOption#SPARSE} (a pack is written whole)
     */
    public static long packTo(Path filter, Path target, CreateOption... options) throws IOException {
        return packTo(filter, target, CreateOption.replaceExisting("pack", options), null);
    }

    /**
     * {@link #packTo(Path, Path, CreateOption...)}, telling {@code progress} how far it got.
     *
     * @param filter the filter file to pack
     * @param target the pack file to write; its directory must exist
     * @param progress called with bytes packed so far (it starts again from 0 when a sealed filter is
     *     packed again, see {@link #pack(Path, OutputStream)})
     * @param options as {@link #packTo(Path, Path, CreateOption...)} takes them
     * @return the file length packed
     * @throws IOException as {@link #packTo(Path, Path, CreateOption...)} throws it
     */
    public static long packTo(Path filter, Path target, LongConsumer progress, CreateOption... options) throws IOException {
        return packTo(filter, target, CreateOption.replaceExisting("pack", options), Objects.requireNonNull(progress, "progress"));
    }

    /** The pack of {@code filter} published at {@code target}; {@code progress} may be null. */
    private static long packTo(Path filter, Path target, boolean replace, LongConsumer progress) throws IOException {
        long[] length = new long[1];
        FilterFiles.publish(target, replace, 0, (channel, temporary) -> {
            for (int attempt = 1; ; attempt++) {
                try {
                    length[0] = packStream(filter, leftOpen(channel), progress);
                    return;
                } catch (SealWithdrawnException e) {
                    if (attempt == SEAL_ATTEMPTS) {
                        throw e;
                    }
                    // a writer withdrew the seal: the file now reads unsealed, and packs as it is
                    channel.truncate(0).position(0);
                }
            }
        });
        return length[0];
    }

    /**
     * A stream into {@code channel} whose close leaves it open: {@link #pack} closes its stream when
     * the pack is complete, and the channel is the temporary's, which forces, checks and publishes
     * it through that same channel afterwards.
     */
    private static OutputStream leftOpen(FileChannel channel) {
        return new FilterOutputStream(Channels.newOutputStream(channel)) {
            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                out.write(bytes, offset, length);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }

    /**
     * Restores the filter file (of any kind) packed in {@code in} to {@code target}, atomically.
     *
     * @param in the pack, read to its end (not closed)
     * @param source how to name the input in messages (a path, or "stdin")
     * @param target the filter file to restore; its directory must exist
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing target; without it an
     *     existing target fails the call with {@link java.nio.file.FileAlreadyExistsException} and is
     *     left untouched
     * @return what the restored file's headers say
     * @throws InvalidFilterFileException with {@link Problem#BAD_PACK} if the input is not a
     *     bloomstore pack or is damaged, or another problem if a packed header or the region table is bad
     * @throws IllegalArgumentException if {@code options} hold {@link CreateOption#SPARSE} (every byte is restored)
     */
    public static FilterFileSummary unpack(InputStream in, String source, Path target, CreateOption... options)
            throws IOException {
        return unpack(in, source, target, CreateOption.replaceExisting("unpack", options), null);
    }

    /**
     * {@link #unpack(InputStream, String, Path, CreateOption...)}, telling {@code progress} how far it got.
     *
     * @param in the pack, read to its end (not closed)
     * @param source how to name the input in messages (a path, or "stdin")
     * @param target the filter file to restore; its directory must exist
     * @param progress called with the bytes of the filter file restored so far, up to its length
     * @param options as {@link #unpack(InputStream, String, Path, CreateOption...)} takes them
     * @return what the restored file's headers say
     * @throws IOException as {@link #unpack(InputStream, String, Path, CreateOption...)} throws it
     */
    public static FilterFileSummary unpack(InputStream in, String source, Path target, LongConsumer progress,
            CreateOption... options) throws IOException {
        return unpack(in, source, target, CreateOption.replaceExisting("unpack", options), Objects.requireNonNull(progress, "progress"));
    }

    /** The restore of the pack {@code in} to {@code target}; {@code progress} may be null. */
    private static FilterFileSummary unpack(InputStream in, String source, Path target, boolean replace, LongConsumer progress)
            throws IOException {
        Path sourcePath = Path.of(source);
        FilterFileSummary[] restored = new FilterFileSummary[1];
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
            // a file shorter than a header page is the header check's to report (TOO_SHORT), not a truncated pack
            byte[] page = pack.readFully((int) Math.max(0, Math.min(FilterFileDescriptor.CELLS_START, length)));
            ContainerImage container = null;
            if (FileKinds.of(page, page.length) == FilterKind.MAP) {
                MapHeader.decode(sourcePath, page, length);
                restored[0] = new FilterFileSummary(FilterKind.MAP, 1, length, Optional.empty());
            } else if (FileKinds.of(page, page.length) == FilterKind.FIXED) {
                FilterHeader header = FilterHeader.decode(sourcePath, page, length);
                restored[0] = new FilterFileSummary(FilterKind.FIXED, 1, length, Optional.of(header.info()));
            } else {
                container = ContainerImage.decode(sourcePath, page, length);
                restored[0] = new FilterFileSummary(container.header().isGrowing() ? FilterKind.GROWING : FilterKind.WINDOWED,
                        container.regions(), length, Optional.empty());
            }
            FilterFiles.writeFully(channel, ByteBuffer.wrap(page));
            int regions = container == null ? 0 : container.regions();
            int next = 0; // the next published region, whose own header is checked when the stream reaches it
            byte[] buffer = new byte[BUFFER];
            for (long done = page.length; done < length; ) {
                int n;
                if (next < regions && done == container.offset(next)) {
                    byte[] regionPage = pack.readFully(FilterFileDescriptor.CELLS_START);
                    FilterHeader.decodeRegion(sourcePath, regionPage, container.length(next++));
                    System.arraycopy(regionPage, 0, buffer, 0, regionPage.length);
                    n = regionPage.length;
                } else {
                    long until = next < regions ? container.offset(next) : length;
                    n = pack.read(buffer, (int) Math.min(BUFFER, until - done), done, length);
                }
                FilterFiles.writeFully(channel, ByteBuffer.wrap(buffer, 0, n));
                done += n;
                if (progress != null) {
                    progress.accept(done);
                }
            }
            pack.requireEnd(length);
        });
        return restored[0];
    }

    /**
     * The reading side of unpack: every failure to read is the pack's fault (damaged, truncated, not
     * a pack), reported as {@link Problem#BAD_PACK}; failures to write the target are not, and stay
     * out of here.
     */
    private static final class PackReader {
        /** LZ4-java's words for a block larger than its frame's maximum. */
        private static final Pattern OVERSIZED_BLOCK = Pattern.compile("Block size (\\d+) exceeded max: (\\d+)");
        /** The decompressor's words for where a block went wrong ("Error decoding offset 1 of input buffer"). */
        private static final Pattern MALFORMED_AT = Pattern.compile("offset (\\d+)");

        private final InputStream raw;
        private final Path source;
        private DataInputStream data;
        /** Bytes of the content read by {@link #readFully}: the preamble and the header pages. */
        private long headerBytes;

        PackReader(InputStream raw, Path source) {
            this.raw = raw;
            this.source = source;
        }

        /** The next {@code length} bytes of the headers: a pack that ends before them says after how many of its bytes. */
        byte[] readFully(int length) throws InvalidFilterFileException {
            byte[] bytes = new byte[length];
            try {
                for (int done = 0; done < length; ) {
                    int n = frame().read(bytes, done, length - done);
                    if (n < 0) {
                        throw new EOFException("its content ends after " + (headerBytes + done)
                                + " bytes, inside its headers");
                    }
                    done += n;
                }
            } catch (IOException | RuntimeException e) {
                throw damaged(e);
            }
            headerBytes += length;
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
            } catch (IOException | RuntimeException e) {
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
            } catch (IOException | RuntimeException e) {
                throw damaged(e);
            }
        }

        private DataInputStream frame() throws IOException {
            if (data == null) {
                data = new DataInputStream(new LZ4FrameInputStream(raw, true));
            }
            return data;
        }

        /**
         * The refusal for a failed read: LZ4-java's reasons are its own words (or none, or a
         * runtime {@code LZ4Exception} from the decompressor), so the usual ones are said in a reader's.
         */
        private InvalidFilterFileException damaged(Exception e) {
            if (e instanceof InvalidFilterFileException invalid) {
                return invalid;
            }
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            Matcher oversized = OVERSIZED_BLOCK.matcher(reason);
            Throwable decoder = e instanceof RuntimeException ? e : e.getCause();
            if (oversized.matches()) {
                reason = "a compressed block says it holds " + oversized.group(1) + " bytes, more than the "
                        + oversized.group(2) + " its frame allows";
            } else if (decoder instanceof LZ4Exception) { // bare, or wrapped by the frame reader
                Matcher at = MALFORMED_AT.matcher(String.valueOf(decoder.getMessage()));
                reason = "a compressed block does not decompress" + (at.find() ? " (malformed at its byte " + at.group(1) + ")" : "");
            }
            return new InvalidFilterFileException(source, Problem.BAD_PACK,
                    "damaged or truncated pack (" + reason + "); nothing was written", e);
        }
    }
}

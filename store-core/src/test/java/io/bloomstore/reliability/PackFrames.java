package io.bloomstore.reliability;

import io.bloomstore.Pack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4FrameOutputStream;

/**
 * Builds pack streams by hand, to damage what is inside a well-formed LZ4 frame: the preamble, the
 * packed header, the length. (Damage to the frame itself is caught by the LZ4 checksums first.)
 */
public final class PackFrames {
    private PackFrames() {
    }

    /** A pack's content before compression: the preamble (magic, version, reserved, length) and then {@code file}. */
    static byte[] content(long magic, int version, long announcedLength, byte[] file) {
        return ByteBuffer.allocate(24 + file.length).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(magic).putInt(version).putInt(0).putLong(announcedLength).put(file).array();
    }

    /** The pack content of {@code file} as {@link Pack#pack} would write it. */
    public static byte[] content(byte[] file) {
        return content(Pack.PACK_MAGIC, Pack.PACK_VERSION, file.length, file);
    }

    /** {@code content} in an LZ4 frame with valid block and content checksums, as {@link Pack#pack} frames it. */
    public static byte[] frame(byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LZ4FrameOutputStream lz4 = new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
                LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE, LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM,
                LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM)) {
            lz4.write(content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}

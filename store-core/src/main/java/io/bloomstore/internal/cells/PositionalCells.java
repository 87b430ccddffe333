package io.bloomstore.internal.cells;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * A filter file's cells read where they lie in the file, one positional read (a {@code pread}
 * system call) per cell: for a process that asks a few keys and exits, which would pay more to
 * start the memory layer and map the file than to read its k words per key (docs/BENCHMARKS.md,
 * "CLI start-up"). Read-only, and nothing here touches Chronicle: the file is never mapped.
 *
 * <p>A read goes through the kernel's page cache, which every mapping of the file shares, so it
 * sees every update completed before it by any process. Each read has its own 8-byte buffer, so
 * threads may read at once; beside a system call, its allocation costs nothing measurable.
 */
public final class PositionalCells extends PackedCells {
    private final FileChannel channel;
    private final long start;

    /**
     * Cells read from {@code channel}.
     *
     * @param channel the open file; positional reads leave its position alone, and it stays the caller's to close
     * @param start where word 0 lies in the file
     * @param cells m
     * @param counterBits w
     */
    public PositionalCells(FileChannel channel, long start, long cells, int counterBits) {
        super(cells, counterBits);
        this.channel = channel;
        this.start = start;
    }

    /**
     * {@inheritDoc}
     *
     * @throws UncheckedIOException if the file cannot be read, or (an {@link EOFException}) ends
     *     before the cell's word: it was truncated after it was opened and checked
     */
    @Override
    public long getVolatile(long i) {
        return cellOf(readWord(wordOf(i)), i);
    }

    private long readWord(long w) {
        ByteBuffer word = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        long at = start + (w << 3);
        try {
            while (word.hasRemaining()) {
                if (channel.read(word, at + word.position()) < 0) {
                    throw new EOFException("the file ends before byte " + (at + Long.BYTES) + ", which its header"
                            + " says holds cells");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return word.getLong(0);
    }
}

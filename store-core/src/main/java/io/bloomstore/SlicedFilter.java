package io.bloomstore;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.probe.SliceProbes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A blocked or sectorized filter built in slices: its blocks (a sectorized filter's lines) split
 * into contiguous ranges, each range's cells filled apart (by another thread, process or machine)
 * from the keys whose block falls in it, then the slices laid end to end behind one header into a
 * sealed filter file. A blocked or sectorized key's k cells all lie in its one block, so every
 * slice holds exactly what the whole filter would in those blocks, and the file's cells are byte for byte those of one {@link BloomFilter} given all the
 * keys (in any order: a cell's final value does not depend on the order of adds).
 *
 * <pre>{@code
 * SlicedFilter plan = SlicedFilter.of(spec, 64);
 * // anywhere, for each slice s: the hashes h with plan.sliceOf(h) == s
 * try (SlicedFilter.Slice slice = plan.newSlice(s)) {
 *     slice.addHashes(hashes, count);
 *     slice.writeTo(out);
 * }
 * // then, once:
 * plan.assemble(Path.of("ids.bloom"), false, s -> openWhatSliceWroteTo(s));
 * }</pre>
 *
 * <p>The standard layout cannot be sliced: a standard-layout key's cells are spread over the
 * whole array. Standard-layout filters built apart are OR-merged instead ({@link Merge}).
 */
public final class SlicedFilter {
    private static final int COPY_CHUNK = 1 << 16;

    private final BloomSpec spec;
    private final long blocks;
    private final long blocksPerSlice;
    private final int sliceCount;
    private final int blockBytes;

    private SlicedFilter(BloomSpec spec, long blocksPerSlice) {
        this.spec = spec;
        this.blocks = spec.cells() / spec.cellsPerBlock();
        this.blocksPerSlice = blocksPerSlice;
        this.sliceCount = (int) ((blocks + blocksPerSlice - 1) / blocksPerSlice);
        this.blockBytes = BloomSpec.BLOCK_BITS / Byte.SIZE;
    }

    /**
     * Plans the slices of a blocked or sectorized filter of shape {@code spec}: at most {@code maxSlices} ranges of
     * equally many blocks (the last may have fewer), fewer if the filter has fewer blocks, each
     * at most 1 GiB so that a slice fits one buffer.
     *
     * @param spec the whole filter's shape, of {@link Layout#BLOCKED} or {@link Layout#SECTORIZED} layout
     * @param maxSlices the most slices wanted, at least 1
     * @return the plan, which holds no memory
     * @throws IllegalArgumentException if the layout is standard or {@code maxSlices} is below 1
     */
    public static SlicedFilter of(BloomSpec spec, int maxSlices) {
        if (spec.layout() == Layout.STANDARD) {
            throw new IllegalArgumentException("only a blocked or sectorized filter is built in slices; this spec is "
                    + spec.layout()
                    + " (build standard-layout filters apart and OR-merge them)");
        }
        if (maxSlices < 1) {
            throw new IllegalArgumentException("slices must be at least 1, got " + maxSlices);
        }
        long blocks = spec.cells() / spec.cellsPerBlock();
        long maxBlocksPerSlice = (1L << 30) / (BloomSpec.BLOCK_BITS / Byte.SIZE);
        long perSlice = Math.min(maxBlocksPerSlice, Math.max(1, (blocks + maxSlices - 1) / maxSlices));
        if ((blocks + perSlice - 1) / perSlice > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a filter of " + blocks + " blocks needs too many slices");
        }
        return new SlicedFilter(spec, perSlice);
    }

    /**
     * The whole filter's shape.
     *
     * @return the spec the plan was made for
     */
    public BloomSpec spec() {
        return spec;
    }

    /**
     * The number of slices.
     *
     * @return the count, from 1 to the {@code maxSlices} given to {@link #of} (more only if a slice would pass 1 GiB)
     */
    public int sliceCount() {
        return sliceCount;
    }

    /**
     * The slice that holds the cells of the key whose hash ({@link KeyHasher}) is {@code hash}.
     *
     * @param hash the key's hash, by the hasher of {@link #spec()}'s algorithm and seed
     * @return the slice's index, from 0 to {@link #sliceCount()} - 1
     */
    public int sliceOf(long hash) {
        return (int) (SliceProbes.blockOf(spec, hash) / blocksPerSlice);
    }

    /**
     * The number of cell bytes slice {@code slice} holds: what {@link Slice#writeTo} writes.
     *
     * @param slice the slice's index, from 0 to {@link #sliceCount()} - 1
     * @return the length in bytes, a multiple of 64, at most 1 GiB
     * @throws IndexOutOfBoundsException if there is no such slice
     */
    public long sliceBytes(int slice) {
        return blockCount(slice) * blockBytes;
    }

    /**
     * A slice with all its cells zero, in native memory that {@link Slice#close()} frees.
     *
     * @param slice the slice's index, from 0 to {@link #sliceCount()} - 1
     * @return the slice; close it to free its memory
     * @throws IndexOutOfBoundsException if there is no such slice
     */
    public Slice newSlice(int slice) {
        return new Slice(slice);
    }

    /** Where {@link #assemble} reads what each slice wrote. */
    @FunctionalInterface
    public interface SliceSource {
        /**
         * The bytes {@link Slice#writeTo} wrote for slice {@code slice}; the caller closes the stream.
         *
         * @param slice the slice's index, from 0 to {@link SlicedFilter#sliceCount()} - 1; each is opened once, in order
         * @return the slice's bytes, exactly {@link SlicedFilter#sliceBytes} of them
         * @throws IOException to end the assembly; {@link SlicedFilter#assemble} rethrows it and leaves no file
         */
        InputStream open(int slice) throws IOException;
    }

    /**
     * Writes the filter file at {@code target}: a new header for {@link #spec()} (a new file, with a new
     * identity), the slices' cells in
     * order, zero up to the page the cells end on, sealed (its cells checksum recorded, as
     * {@link BloomFilter#seal()} does) before it appears at {@code target}, atomically.
     *
     * @param target the filter file to write; its directory must exist
     * @param slices opens each slice's bytes, in order
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing file at {@code target}
     *     ({@link CreateOption#SPARSE} is refused: every cell is written)
     * @throws IOException if a slice's bytes are not exactly {@link #sliceBytes} long (naming the
     *     slice), or the file cannot be written; no file is left behind
     */
    public void assemble(Path target, SliceSource slices, CreateOption... options) throws IOException {
        boolean replace = CreateOption.replaceExisting("an assembly of slices", options);
        FilterHeader header = FilterHeader.newFile(spec, System.currentTimeMillis(), false);
        FilterFiles.publishFilter(target, replace, header, true, (channel, temporary) -> {
            long written = 0;
            ByteBuffer buffer = ByteBuffer.allocateDirect(COPY_CHUNK);
            for (int s = 0; s < sliceCount; s++) {
                long expected = sliceBytes(s);
                long copied = 0;
                try (InputStream in = slices.open(s); ReadableByteChannel source = Channels.newChannel(in)) {
                    for (int n; (n = source.read(buffer.clear())) >= 0; ) {
                        copied += n;
                        if (copied > expected) {
                            break;
                        }
                        FilterFiles.writeFully(channel, buffer.flip());
                    }
                }
                if (copied != expected) {
                    throw new IOException(target + ": slice " + s + " of " + sliceCount + " has "
                            + (copied > expected ? "more than " + expected : copied + " of its " + expected)
                            + " bytes; build it again");
                }
                written += copied;
            }
            FilterFiles.writeZeros(channel, spec.cellBytes() - written);
            Merge.sealInPlace(temporary);
        });
    }

    private long blockCount(int slice) {
        if (slice < 0 || slice >= sliceCount) {
            throw new IndexOutOfBoundsException("slice " + slice + " of " + sliceCount);
        }
        long first = slice * blocksPerSlice;
        return Math.min(blocksPerSlice, blocks - first);
    }

    /**
     * The cells of one slice, held in native memory: fill them from one thread, write them out,
     * close. No other process or thread can reach the memory, so adds are plain stores, not
     * compare-and-sets: a fifth less CPU for a blocked slice far larger than the caches
     * (docs/BENCHMARKS-HISTORY.md, "Plain stores for a single writer"). Not thread-safe.
     */
    public final class Slice implements AutoCloseable {
        private final int index;
        private final BytesStore<?, Void> memory;
        private final CellArray cells;
        private final SliceProbes probes;
        private boolean closed;

        private Slice(int index) {
            this.index = index;
            long bytes = sliceBytes(index);
            this.memory = BytesStore.nativeStoreWithFixedCapacity(bytes);
            memory.zeroOut(0, bytes);
            this.cells = CellArray.singleWriter(memory, 0, blockCount(index) * spec.cellsPerBlock(), spec.counterBits(),
                    bytes);
            this.probes = new SliceProbes(spec, index * blocksPerSlice, cells);
        }

        /**
         * Which slice this is.
         *
         * @return the slice's index, from 0
         */
        public int index() {
            return index;
        }

        /**
         * Sets the cells of the keys whose hashes are {@code hashes[0 .. count)}, each of which must
         * belong to this slice ({@link SlicedFilter#sliceOf}); from one thread at a time.
         *
         * @param hashes the hashes, from the hasher of the whole filter's spec
         * @param count how many of them to add, from 0 to {@code hashes.length}
         * @return how many were definitely new to the slice
         * @throws IllegalArgumentException if a hash belongs to another slice; then no cell is set
         */
        public int addHashes(long[] hashes, int count) {
            ensureOpen();
            return probes.addHashes(hashes, count);
        }

        /**
         * Writes the slice's {@link SlicedFilter#sliceBytes} cell bytes, as they lie in the file.
         *
         * @param out receives the bytes; left open
         * @throws IOException if {@code out} cannot be written
         * @throws IllegalStateException if the slice is closed
         */
        public void writeTo(OutputStream out) throws IOException {
            ensureOpen();
            long[] words = new long[COPY_CHUNK / Long.BYTES];
            ByteBuffer bytes = ByteBuffer.allocate(COPY_CHUNK).order(ByteOrder.LITTLE_ENDIAN);
            for (long from = 0; from < cells.words(); from += words.length) {
                int n = (int) Math.min(words.length, cells.words() - from);
                cells.copyWordsPlain(from, words, n);
                bytes.clear();
                bytes.asLongBuffer().put(words, 0, n);
                out.write(bytes.array(), 0, n * Long.BYTES);
            }
        }

        /** Frees the slice's memory. Idempotent. */
        @Override
        public void close() {
            if (!closed) {
                closed = true;
                memory.releaseLast();
            }
        }

        private void ensureOpen() {
            if (closed) {
                throw new IllegalStateException("slice " + index + " is closed");
            }
        }
    }
}

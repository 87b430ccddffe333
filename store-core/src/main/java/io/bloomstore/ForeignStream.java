package io.bloomstore;

import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.hashing.ForeignSeeds;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The start of another library's filter stream, read and checked before anything is created: the
 * shape it announces, and the count of big-endian longs of bits that follow. Each library writes
 * its {@code long[]} with {@code DataOutputStream.writeLong}; {@link #publishTo} turns them into
 * bloomstore's little-endian cell words, bit for bit, in a new sealed file. {@link GuavaFilters}
 * and {@link SparkSketches} share it. A stream that ends early is refused with an
 * {@link EOFException}, one whose header no such filter has with a {@link StreamCorruptedException}.
 *
 * @param spec the shape of the bloomstore file that holds the filter
 * @param words the longs of bits the stream announces
 * @param in the stream, positioned at the first of them
 */
record ForeignStream(BloomSpec spec, long words, DataInputStream in) {
    private static final int CHUNK_WORDS = 8192;

    /**
     * Reads a Guava {@code BloomFilter.writeTo} stream's start: strategy ordinal (1 byte), k (1
     * unsigned byte), the count of longs (a big-endian int).
     *
     * @throws IOException with one line naming what is wrong, if the start is not a Guava filter's
     */
    static ForeignStream guava(InputStream source) throws IOException {
        DataInputStream in = new DataInputStream(source);
        int strategy = readOrRefuse(in, 1, "Guava");
        if (strategy != ForeignSeeds.GUAVA_MITZ_32 && strategy != ForeignSeeds.GUAVA_MITZ_64) {
            throw new StreamCorruptedException("strategy byte " + strategy + " is not one of Guava's (0 MURMUR128_MITZ_32,"
                    + " 1 MURMUR128_MITZ_64): not a Guava BloomFilter.writeTo stream");
        }
        int hashes = readOrRefuse(in, 1, "Guava");
        int words = readOrRefuse(in, 4, "Guava");
        return of(Layout.GUAVA, hashes, words, strategy, in, "Guava");
    }

    /**
     * Reads a Spark sketch {@code BloomFilter.writeTo} stream's start: version (a big-endian int, 1
     * or 2), k (int), version 2's murmur seed (int), the count of longs (int).
     *
     * @throws IOException with one line naming what is wrong, if the start is not a Spark sketch's
     */
    static ForeignStream sparkSketch(InputStream source) throws IOException {
        DataInputStream in = new DataInputStream(source);
        int version = readOrRefuse(in, 4, "Spark sketch");
        if (version != 1 && version != 2) {
            throw new StreamCorruptedException("version " + version + " is not a Spark sketch Bloom filter's (1 or 2): not an"
                    + " org.apache.spark.util.sketch.BloomFilter.writeTo stream, or one of a newer Spark");
        }
        int hashes = readOrRefuse(in, 4, "Spark sketch");
        int seed = version == 2 ? readOrRefuse(in, 4, "Spark sketch") : 0;
        int words = readOrRefuse(in, 4, "Spark sketch");
        return of(Layout.SPARK_SKETCH, hashes, words, ForeignSeeds.sparkSeedField(version, seed), in, "Spark sketch");
    }

    private static ForeignStream of(Layout layout, int hashes, int words, long seed, DataInputStream in, String library)
            throws IOException {
        if (words <= 0) {
            throw new StreamCorruptedException("the stream announces " + words + " longs of bits; a " + library
                    + " filter has at least one: damaged, or not a " + library + " filter stream");
        }
        if (hashes < BloomSpec.MIN_HASHES || hashes > BloomSpec.MAX_HASHES) {
            throw new StreamCorruptedException("the stream announces " + hashes + " hash functions; bloomstore probes "
                    + BloomSpec.MIN_HASHES + " to " + BloomSpec.MAX_HASHES + " (a " + library
                    + " filter past that is damaged, or sized for a rate no double holds)");
        }
        BloomSpec spec = BloomSpec.builder().layout(layout)
                .hashAlgorithm(layout == Layout.GUAVA ? HashAlgorithm.MURMUR3_X64_128 : HashAlgorithm.MURMUR3_X86_32)
                .cells(64L * words).hashes(hashes).seed(seed).build();
        return new ForeignStream(spec, words, in);
    }

    /** Reads a big-endian unsigned byte or int, or refuses a stream that ends first. */
    private static int readOrRefuse(DataInputStream in, int bytes, String library) throws IOException {
        try {
            return bytes == 1 ? in.readUnsignedByte() : in.readInt();
        } catch (EOFException e) {
            throw new EOFException("the stream ends inside its header: empty, or not a " + library + " filter stream");
        }
    }

    /**
     * Writes the filter this stream announces into a new file at {@code out}, sealed, and
     * publishes it atomically: a stream that ends early leaves nothing behind.
     */
    FilterFileInfo publishTo(Path out, CreateOption... options) throws IOException {
        boolean replace = Arrays.asList(options).contains(CreateOption.REPLACE_EXISTING);
        FilterHeader header = FilterHeader.newFile(spec, System.currentTimeMillis(), false);
        try {
            FilterFiles.publishFilter(out, replace, header, false, (channel, temporary) -> {
                copyWords(channel);
                Merge.sealInPlace(temporary);
            });
        } catch (CutShort e) {
            throw e.getCause(); // about the stream, which the disk's advice for a failed write would not help
        }
        return header.info();
    }

    /**
     * Appends the stream's {@link #words} longs to {@code channel} as little-endian words, then
     * zeros up to the cells' whole pages ({@link BloomSpec#cellBytes()}).
     *
     * @throws IOException naming how far the stream got, if it ends before its last long
     */
    private void copyWords(FileChannel channel) throws IOException {
        byte[] raw = new byte[CHUNK_WORDS * 8];
        LongBuffer bigEndian = ByteBuffer.wrap(raw).asLongBuffer();
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK_WORDS * 8).order(ByteOrder.LITTLE_ENDIAN);
        LongBuffer littleEndian = chunk.asLongBuffer();
        for (long done = 0; done < words; ) {
            int n = (int) Math.min(CHUNK_WORDS, words - done);
            int read = in.readNBytes(raw, 0, n * 8);
            if (read < n * 8) {
                throw new CutShort(new EOFException("the stream ends after " + (done + read / 8) + " of the " + words
                        + " longs of bits its header announces: truncated"));
            }
            littleEndian.clear();
            littleEndian.put(bigEndian.clear().limit(n)); // one bulk copy that swaps each long's bytes
            FilterFiles.writeFully(channel, chunk.clear().limit(n * 8));
            done += n;
        }
        FilterFiles.writeZeros(channel, spec.cellBytes() - words * 8);
    }

    /** A stream that ends early ({@link EOFException}), carried past the file writer's handling of a failed write (the temporary is removed). */
    private static final class CutShort extends UncheckedIOException {
        private static final long serialVersionUID = 1L;

        CutShort(EOFException cause) {
            super(cause);
        }
    }
}

package io.bloomstore;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;

/**
 * Spark's {@code org.apache.spark.util.sketch.BloomFilter} (the sketch of
 * {@code DataFrame.stat.bloomFilter}), as bloomstore files of the {@link Layout#SPARK_SKETCH}
 * layout: the bit array of a {@code writeTo} stream of version 1 or 2, mapped, answering as the
 * sketch's {@code mightContain} does. Spark itself is not needed.
 *
 * <p><b>Keys.</b> The file does not record the type of the keys put in; ask with the call of the
 * same type: {@code putLong} is {@code mightContain(long)}, {@code putString} is
 * {@code mightContain(CharSequence)} (UTF-8), {@code putBinary} is {@code mightContain(byte[])}.
 * Spark hashes a long as its 8 little-endian bytes, so a long key and the byte[] of those bytes
 * are one key here as there.
 *
 * <p>The file is an ordinary mapped filter: adds, sharing, batch calls and {@link Merge} with
 * files of the same shape (bits, k, version and seed) all work as for bloomstore's own files.
 */
public final class SparkSketches {
    private SparkSketches() {
    }

    /**
     * Reads a Spark sketch {@code BloomFilter.writeTo} stream into a new filter file at
     * {@code out}, sealed. The stream is checked before anything is created; one that ends early,
     * or has a version other than 1 or 2, leaves no file. Bytes after the bit array are not read.
     *
     * @param in the stream, at its version int; read to the end of the bit array, not closed
     * @param out the file to create; its directory must exist
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing file
     * @return the new file's header: layout {@link Layout#SPARK_SKETCH}, the sketch's version in
     *     bits 32 to 63 of the seed and its murmur seed in bits 0 to 31
     * @throws java.io.EOFException if the stream ends before its bit array does (one line, naming how far it got)
     * @throws java.io.StreamCorruptedException if its header is no such filter's (one line, naming the field)
     * @throws IOException if the file cannot be written
     * @throws FileAlreadyExistsException if {@code out} exists and replacing it was not asked for
     */
    public static FilterFileInfo importStream(InputStream in, Path out, CreateOption... options) throws IOException {
        return ForeignStream.sparkSketch(in).publishTo(out, options);
    }
}

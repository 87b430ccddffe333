package io.bloomstore;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;

/**
 * Guava's {@code com.google.common.hash.BloomFilter}, as bloomstore files of the
 * {@link Layout#GUAVA} layout: the bit array of a {@code writeTo} stream, mapped instead of read
 * onto the heap, answering every key as Guava's {@code mightContain} does with the same funnel.
 * Guava itself is not needed.
 *
 * <pre>{@code
 * GuavaFilters.importStream(Files.newInputStream(Path.of("users.guava")), Path.of("users.bloom"));
 * try (BloomFilter users = BloomFilter.open(Path.of("users.bloom"), OpenMode.READ_ONLY)) {
 *     users.mightContain("alice");   // as guavaFilter.mightContain("alice") with Funnels.stringFunnel(UTF_8)
 * }
 * }</pre>
 *
 * <p><b>Funnels.</b> The file does not record the funnel; ask with the key call that puts the
 * same bytes: {@code Funnels.stringFunnel(UTF_8)} is {@code mightContain(CharSequence)} (its UTF-8
 * bytes), {@code Funnels.longFunnel()} is {@code mightContain(long)} (8 little-endian bytes, as
 * Guava's hasher puts a long), {@code Funnels.byteArrayFunnel()} is {@code mightContain(byte[])};
 * any other funnel is the bytes it puts, in the order it puts them, as a byte[] key.
 *
 * <p><b>Adds, sharing, merging.</b> The file is an ordinary mapped filter: adds set the bits
 * Guava's {@code put} would (so a key added here is found by Guava too, once the bits go back
 * into Guava), any number of processes share it, and {@link Merge} ORs it with files of the same
 * shape (same bits, k and strategy), as Guava's {@code putAll} does. A filter of Guava's default
 * strategy ({@code MURMUR128_MITZ_64}) takes keys only through the key calls: its probes need both
 * halves of a 128-bit hash, so its {@code *Hash} and batch calls refuse.
 *
 * <p><b>The old strategy.</b> {@code MURMUR128_MITZ_32} (ordinal 0, Guava before 11) is read too,
 * and answers as Guava does, flaw included: it combines two 32-bit halves of the hash in int
 * arithmetic, so a filter of more than 2^31 bits only ever probes its first 2^31, and its rate is
 * far above its sizing. Where the keys are at hand, a native bloomstore filter built from them
 * ({@code bloomstore build}, or {@link FilterBuilder}) is faster, sized for its rate, and mergeable
 * with the rest of bloomstore's files.
 */
public final class GuavaFilters {
    private GuavaFilters() {
    }

    /**
     * Reads a Guava {@code BloomFilter.writeTo} stream into a new filter file at {@code out},
     * sealed. The stream is checked before anything is created; one that ends early, or announces
     * a shape no Guava filter has, leaves no file. Bytes after the bit array are not read.
     *
     * @param in the stream, at the strategy byte; read to the end of the bit array, not closed
     * @param out the file to create; its directory must exist
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing file
     * @return the new file's header: its spec's layout is {@link Layout#GUAVA}, its seed Guava's
     *     strategy ordinal (0 for {@code MURMUR128_MITZ_32}, 1 for {@code MURMUR128_MITZ_64})
     * @throws java.io.EOFException if the stream ends before its bit array does (one line, naming how far it got)
     * @throws java.io.StreamCorruptedException if its header is no such filter's (one line, naming the field)
     * @throws IOException if the file cannot be written
     * @throws FileAlreadyExistsException if {@code out} exists and replacing it was not asked for
     */
    public static FilterFileInfo importStream(InputStream in, Path out, CreateOption... options) throws IOException {
        return ForeignStream.guava(in).publishTo(out, options);
    }
}

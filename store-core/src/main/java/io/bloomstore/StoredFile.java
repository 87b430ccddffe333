package io.bloomstore;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.LongConsumer;

/**
 * An open bloomstore file of any kind: a filter ({@link MembershipFilter}: fixed, growing,
 * windowed), a valued filter ({@link ValuedFilter}: a fixed filter whose cells hold a value per
 * key) or a Bloomier map ({@link BloomierMap}). Every kind answers the same management
 * questions: what it is ({@link #kind()}), where and how large ({@link #path()},
 * {@link #fileBytes()}), its shape ({@link #shape()}, the record of its kind) and whether it is
 * intact ({@link #verify()}). What only one family does (add and query keys, fill statistics and
 * capacity; put and get a valued filter's values; look up a map's values) is reached by
 * {@link #match}, one function per family, never by testing the handle's class.
 *
 * <pre>{@code
 * try (StoredFile file = StoredFile.open(Path.of("users.bloom"))) {
 *     System.out.println(file.kind() + ", " + file.fileBytes() + " bytes, " + file.verify());
 *     long keys = file.match(filter -> filter.approximateKeys(), valued -> valued.filter().approximateKeys(),
 *             map -> map.shape().pairs());
 * }
 * }</pre>
 *
 * <p>A new kind of file is one class implementing this interface (through {@link MembershipFilter}
 * if it is a filter), its format code, and a case of {@link FilterKind} and of the opener: the
 * command line's {@code inspect} and {@code verify} ask only this interface.
 */
public sealed interface StoredFile extends AutoCloseable permits MembershipFilter, ValuedFilter, BloomierMap {
    /**
     * Opens a file of any kind read-only, as its kind's own {@code open} would (a windowed filter's
     * epochs read from the system clock); a fixed filter whose cells hold values opens as a
     * {@link ValuedFilter}. The file is opened once: its kind, its headers and its
     * mapping are all read through that one descriptor, so a file renamed over the path meanwhile is
     * either wholly the one opened or not opened at all (docs/RELIABILITY.md, "Inputs bound to one
     * descriptor").
     *
     * @param path the file
     * @return the open file, of its kind; close it when done
     * @throws InvalidFilterFileException if the file is damaged or not a bloomstore file
     * @throws IOException if it cannot be read
     */
    static StoredFile open(Path path) throws IOException {
        return FileOpener.any(path, Clock.systemUTC());
    }

    /**
     * The file.
     *
     * @return the path the file was opened with
     */
    Path path();

    /**
     * The kind of file.
     *
     * @return its kind, as the file's first bytes tell it
     */
    FilterKind kind();

    /**
     * The file's length, read when it was opened or through the descriptor it was opened on: not
     * whatever file the path names by now.
     *
     * @return its size on disk, in bytes
     */
    long fileBytes();

    /**
     * What the file is and its shape, from its headers, without reading its cells or table.
     *
     * @return the common answers; the record of its kind ({@link FilterShape}, {@link MapShape}) for the rest
     */
    FileShape shape();

    /**
     * Checks the file beyond what opening it checked (docs/FORMAT.md, "What verify detects"): a
     * sealed fixed filter's cells and a map's table against their checksums, every region of a
     * growing or windowed file, the padding of all.
     *
     * @return what was checked, when no damage was found
     * @throws InvalidFilterFileException naming the first damage found
     * @throws IOException if the file cannot be read
     */
    CellsCheck verify() throws IOException;

    /**
     * {@link #verify()}, telling {@code bytesRead} how far it got, up to {@link FileShape#scanBytes()},
     * where it reads cells or a table ({@link FileShape#sealed()}): for a progress display.
     *
     * @param bytesRead told the bytes read so far, on the calling thread
     * @return as {@link #verify()}
     * @throws InvalidFilterFileException as {@link #verify()}
     * @throws IOException if the file cannot be read
     */
    CellsCheck verify(LongConsumer bytesRead) throws IOException;

    /**
     * Applies the function of this file's family to it: {@code filter} to a filter, {@code valued}
     * to a valued filter, {@code map} to a Bloomier map. A family added later is then a compile
     * error at each caller, never a case silently missed.
     *
     * @param <R> what the functions return
     * @param <X> what they may throw
     * @param filter applied to a filter
     * @param valued applied to a valued filter
     * @param map applied to a map
     * @return what the applied function returned
     * @throws X what the applied function threw
     */
    <R, X extends Exception> R match(KindFunction<? super MembershipFilter, ? extends R, X> filter,
            KindFunction<? super ValuedFilter, ? extends R, X> valued, KindFunction<? super BloomierMap, ? extends R, X> map)
            throws X;

    /** Unmaps the file, publishing what the kind publishes on close. Idempotent. */
    @Override
    void close();

    /**
     * What {@link #match} applies to a file of one family; it may throw, as the I/O a caller does
     * with the file may.
     *
     * @param <T> the file's family
     * @param <R> what it returns
     * @param <X> what it may throw
     */
    @FunctionalInterface
    interface KindFunction<T, R, X extends Exception> {
        /**
         * Applies this function.
         *
         * @param file the open file, of this function's family
         * @return the result
         * @throws X as the caller's work may
         */
        R apply(T file) throws X;
    }
}

package io.bloomstore;

/**
 * What an open bloomstore file is, read from its headers ({@link StoredFile#shape()}): the
 * answers every kind gives alike. A filter's shape is a {@link FilterShape}, a Bloomier map's a
 * {@link MapShape}; the handle's {@link StoredFile#match} reaches either with its type.
 */
public sealed interface FileShape permits FilterShape, MapShape {
    /**
     * The kind of file.
     *
     * @return its kind
     */
    FilterKind kind();

    /**
     * The file's length, as the file was opened.
     *
     * @return its size on disk, in bytes
     */
    long fileBytes();

    /**
     * What {@link StoredFile#verify(java.util.function.LongConsumer)} (and a filter's scan) reports
     * to its progress callback in all: the total a progress display shows.
     *
     * @return in bytes
     */
    long scanBytes();

    /**
     * Whether a checksum of the cells or table is recorded, which {@link StoredFile#verify()} then
     * reads them through to check.
     *
     * @return true for a sealed fixed filter and for every map; false otherwise
     */
    boolean sealed();
}

package io.bloomstore.internal.format;

import io.bloomstore.HashAlgorithm;
import io.bloomstore.Layout;
import io.bloomstore.ParquetType;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The bytes a file header stores for a {@link Layout} and a {@link HashAlgorithm} (docs/FORMAT.md,
 * "Header"), and for a split-block filter's {@link ParquetType} (Parquet's own Thrift ids). Never
 * renumber them: a file says by them how it must be probed, and a new layout or algorithm gets a
 * new id, never a reused one.
 */
public final class FormatIds {
    private FormatIds() {
    }

    /**
     * The header's byte for {@code layout}.
     *
     * @return 0 standard, 1 blocked, 2 sectorized, 3 sbbf, 4 guava, 5 spark_sketch
     */
    public static int of(Layout layout) {
        return switch (layout) {
            case STANDARD -> 0;
            case BLOCKED -> 1;
            case SECTORIZED -> 2;
            case SBBF -> 3;
            case GUAVA -> 4;
            case SPARK_SKETCH -> 5;
        };
    }

    /**
     * The header's byte for {@code algorithm}; 0 is never used.
     *
     * @return 1 xxh3-64, 2 xxh64, 3 murmur3-x64-128, 4 murmur3-x86-32
     */
    public static int of(HashAlgorithm algorithm) {
        return switch (algorithm) {
            case XXH3_64 -> 1;
            case XXH64 -> 2;
            case MURMUR3_X64_128 -> 3;
            case MURMUR3_X86_32 -> 4;
        };
    }

    /**
     * The layout stored under {@code id}.
     *
     * @throws IllegalArgumentException naming the id and the known ones
     */
    public static Layout layout(int id) {
        return byId(Layout.values(), FormatIds::of, id, () -> "unknown layout id " + id
                + " (known: 0 standard, 1 blocked, 2 sectorized, 3 sbbf, 4 guava, 5 spark_sketch); a newer bloomstore may read it");
    }

    /**
     * The hash algorithm stored under {@code id}.
     *
     * @throws IllegalArgumentException naming the id and the known ones
     */
    public static HashAlgorithm hashAlgorithm(int id) {
        return byId(HashAlgorithm.values(), FormatIds::of, id, () -> "unknown hash algorithm id " + id
                + " (known: 1 xxh3-64, 2 xxh64, 3 murmur3-x64-128, 4 murmur3-x86-32)");
    }

    /**
     * The value of Parquet's Thrift {@code Type} enum for {@code type}: the byte a split-block
     * file's header stores, and the type a Parquet column chunk names.
     *
     * @return 1 INT32, 2 INT64, 4 FLOAT, 5 DOUBLE, 6 BYTE_ARRAY, 7 FIXED_LEN_BYTE_ARRAY
     */
    public static int of(ParquetType type) {
        return switch (type) {
            case INT32 -> 1;
            case INT64 -> 2;
            case FLOAT -> 4;
            case DOUBLE -> 5;
            case BYTE_ARRAY -> 6;
            case FIXED_LEN_BYTE_ARRAY -> 7;
        };
    }

    /**
     * The Parquet type stored under Parquet's Thrift id {@code id}.
     *
     * @throws IllegalArgumentException for BOOLEAN (0) and INT96 (3), which Parquet writes no Bloom
     *     filters for, and for unknown ids
     */
    public static ParquetType parquetType(int id) {
        return byId(ParquetType.values(), FormatIds::of, id, () -> "Parquet physical type id " + id
                + " has no split-block filter (known: 1 INT32, 2 INT64, 4 FLOAT, 5 DOUBLE, 6 BYTE_ARRAY, 7 FIXED_LEN_BYTE_ARRAY)");
    }

    private static <E> E byId(E[] values, ToIntFunction<E> idOf, int id, Supplier<String> unknown) {
        for (E value : values) {
            if (idOf.applyAsInt(value) == id) {
                return value;
            }
        }
        throw new IllegalArgumentException(unknown.get());
    }
}

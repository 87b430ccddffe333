package io.bloomstore;

/**
 * The Apache Parquet physical type of the keys of a {@link Layout#SBBF} filter: it decides the bytes
 * a key is hashed as, which are Parquet's PLAIN encoding of the value (what Parquet's writers hash
 * into their column filters). Stored in the file header by its Thrift id (docs/FORMAT.md,
 * "Split-block layout"; {@code internal.format.FormatIds}), so every tool hashes a file's keys the
 * same way.
 *
 * <p>How each key of the API becomes bytes, by type:
 *
 * <table>
 *   <caption>key bytes by physical type</caption>
 *   <tr><th>type</th><th>{@code long} key</th><th>{@code CharSequence} key</th></tr>
 *   <tr><td>INT32</td><td>4 bytes little-endian; must fit an int</td><td>a decimal int, as {@link Integer#parseInt}</td></tr>
 *   <tr><td>INT64</td><td>8 bytes little-endian</td><td>a decimal long, as {@link Long#parseLong}</td></tr>
 *   <tr><td>FLOAT</td><td>the float nearest it, 4 bytes IEEE 754 little-endian</td><td>as {@link Float#parseFloat}</td></tr>
 *   <tr><td>DOUBLE</td><td>the double nearest it, 8 bytes IEEE 754 little-endian</td><td>as {@link Double#parseDouble}</td></tr>
 *   <tr><td>BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY</td><td>8 bytes little-endian</td><td>its UTF-8 bytes (no length prefix)</td></tr>
 * </table>
 *
 * A {@code byte[]} or {@link java.nio.ByteBuffer} key is always hashed as the bytes it holds: the
 * value's PLAIN encoding, for any type.
 */
public enum ParquetType {
    /** 32-bit signed integers (also DATE, and the smaller integer and decimal logical types). */
    INT32,
    /** 64-bit signed integers (also TIMESTAMP and the larger decimals). */
    INT64,
    /** IEEE 754 binary32. */
    FLOAT,
    /** IEEE 754 binary64. */
    DOUBLE,
    /** Variable-length byte strings (also STRING, JSON, …): hashed without their length prefix. */
    BYTE_ARRAY,
    /** Fixed-length byte strings (also UUID, FLOAT16, fixed decimals). */
    FIXED_LEN_BYTE_ARRAY;

    /**
     * Whether the values are numbers, which a text key is parsed as; else byte strings, which a
     * text key's UTF-8 bytes are.
     *
     * @return true for INT32, INT64, FLOAT and DOUBLE
     */
    public boolean isNumeric() {
        return this != BYTE_ARRAY && this != FIXED_LEN_BYTE_ARRAY;
    }
}

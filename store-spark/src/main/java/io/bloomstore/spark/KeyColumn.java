package io.bloomstore.spark;

import io.bloomstore.KeyHasher;
import java.io.Serializable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;

/**
 * How a key column's values become the canonical bytes the core hashes (docs/FORMAT.md, "Keys"),
 * so that a file built on Spark answers as one built by {@code bloomstore build} or the Java API:
 * <ul>
 *   <li>string: its UTF-8 bytes (Spark holds strings as UTF-8 already: hashed in place of a {@code String});
 *   <li>long, and int, short, byte widened to a long: the long's 8 little-endian bytes, so an int
 *       column and a long column with the same numbers give the same keys;
 *   <li>binary: the bytes as they are.
 * </ul>
 * Any other type is refused: cast it to one of these first, which says how its values are keys.
 */
enum KeyColumn implements Serializable {
    STRING, LONG, INT, SHORT, BYTE, BINARY;

    /**
     * The kind of column {@code column} of {@code schema}.
     *
     * @throws IllegalArgumentException naming the column and the columns there are, if it is missing,
     *     or its type, if that is not a key type
     */
    static KeyColumn of(StructType schema, String column) {
        if (!schema.getFieldIndex(column).isDefined()) {
            throw new IllegalArgumentException("no column " + column + " to take keys from; the columns are "
                    + String.join(", ", schema.fieldNames()));
        }
        DataType type = schema.apply(column).dataType();
        if (type instanceof StringType) {
            return STRING;
        } else if (type instanceof LongType) {
            return LONG;
        } else if (type instanceof IntegerType) {
            return INT;
        } else if (type instanceof ShortType) {
            return SHORT;
        } else if (type instanceof ByteType) {
            return BYTE;
        } else if (type instanceof BinaryType) {
            return BINARY;
        }
        throw new IllegalArgumentException("column " + column + " is of type " + type.simpleString()
                + "; bloomstore keys are strings (UTF-8), whole numbers (as a long) or binary: cast it to one of these");
    }

    /** The hash of field {@code ordinal} of {@code row}, which must not be null. */
    long hash(InternalRow row, int ordinal, KeyHasher hasher) {
        return switch (this) {
            case STRING -> hasher.hash(row.getUTF8String(ordinal).getBytes());
            case LONG -> hasher.hash(row.getLong(ordinal));
            case INT -> hasher.hash((long) row.getInt(ordinal));
            case SHORT -> hasher.hash((long) row.getShort(ordinal));
            case BYTE -> hasher.hash((long) row.getByte(ordinal));
            case BINARY -> hasher.hash(row.getBinary(ordinal));
        };
    }

    /**
     * The hash of a key as a user-defined function receives it (String, Long, Integer, Short, Byte or
     * byte[]), the same as {@link #hash} of the column value it came from.
     *
     * @throws IllegalArgumentException for a value of any other type
     */
    static long hashValue(Object key, KeyHasher hasher) {
        if (key instanceof String s) {
            return hasher.hash(s);
        } else if (key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof Byte) {
            return hasher.hash(((Number) key).longValue());
        } else if (key instanceof byte[] bytes) {
            return hasher.hash(bytes);
        }
        throw new IllegalArgumentException("a key of type " + key.getClass().getSimpleName()
                + " is not a bloomstore key; cast the column to string, bigint or binary");
    }
}

package io.bloomstore.internal.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A reader of Thrift's compact protocol into plain values, so that Parquet's structures are read
 * by field id without generated classes: a struct becomes a map from field id to value; integers of
 * every width a {@link Long}, booleans a {@link Boolean}, doubles a {@link Double}, binaries and
 * strings a {@code byte[]}, lists and sets a {@link List}, maps a {@link Map}. Every length and count
 * is checked against the bytes left before anything is allocated, and nesting is bounded, so a
 * damaged or hostile footer fails with {@link MalformedThriftException} rather than running out of
 * memory or stack.
 */
public final class CompactThrift {
    private static final int STOP = 0;
    private static final int BOOLEAN_TRUE = 1;
    private static final int BOOLEAN_FALSE = 2;
    private static final int BYTE = 3;
    private static final int I16 = 4;
    private static final int I32 = 5;
    private static final int I64 = 6;
    private static final int DOUBLE = 7;
    private static final int BINARY = 8;
    private static final int LIST = 9;
    private static final int SET = 10;
    private static final int MAP = 11;
    private static final int STRUCT = 12;
    private static final int UUID = 13;
    /** Parquet's structures nest a few levels deep (statistics inside metadata inside a chunk); 64 is ample. */
    private static final int MAX_DEPTH = 64;

    private final ByteBuffer in;

    private CompactThrift(ByteBuffer in) {
        this.in = in.slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Thrown for bytes that are not a well-formed compact-protocol struct. */
    public static final class MalformedThriftException extends Exception {
        private static final long serialVersionUID = 1L;

        MalformedThriftException(String message) {
            super(message);
        }
    }

    /**
     * Reads one struct from the start of {@code bytes}.
     *
     * @return the struct's fields by id, and in {@link Struct#length()} the bytes it took
     */
    public static Struct readStruct(ByteBuffer bytes) throws MalformedThriftException {
        CompactThrift reader = new CompactThrift(bytes);
        Map<Integer, Object> fields = reader.struct(0);
        return new Struct(fields, reader.in.position());
    }

    /** A struct's fields, and the number of bytes it was read from. */
    public record Struct(Map<Integer, Object> fields, int length) {
    }

    private Map<Integer, Object> struct(int depth) throws MalformedThriftException {
        if (depth > MAX_DEPTH) {
            throw new MalformedThriftException("structures nested more than " + MAX_DEPTH + " deep");
        }
        Map<Integer, Object> fields = new HashMap<>();
        int lastId = 0;
        while (true) {
            int header = u8();
            int type = header & 0x0F;
            if (type == STOP) {
                return fields;
            }
            int delta = header >>> 4;
            int id = delta != 0 ? lastId + delta : (int) zigzag(varint());
            lastId = id;
            Object value = type == BOOLEAN_TRUE || type == BOOLEAN_FALSE ? (Object) (type == BOOLEAN_TRUE) : value(type, depth);
            fields.put(id, value);
        }
    }

    private Object value(int type, int depth) throws MalformedThriftException {
        switch (type) {
            case BOOLEAN_TRUE, BOOLEAN_FALSE:
                return u8() == BOOLEAN_TRUE; // inside a collection: one byte each
            case BYTE:
                return (long) (byte) u8();
            case I16, I32, I64:
                return zigzag(varint());
            case DOUBLE:
                need(8);
                return in.getDouble();
            case BINARY: {
                long length = varint();
                need(length);
                byte[] bytes = new byte[(int) length];
                in.get(bytes);
                return bytes;
            }
            case LIST, SET: {
                int header = u8();
                long size = header >>> 4;
                if (size == 15) {
                    size = varint();
                }
                int elementType = header & 0x0F;
                need(size); // every element takes a byte at least
                List<Object> list = new ArrayList<>((int) size);
                for (long i = 0; i < size; i++) {
                    list.add(value(elementType, depth + 1));
                }
                return list;
            }
            case MAP: {
                long size = varint();
                Map<Object, Object> map = new HashMap<>();
                if (size == 0) {
                    return map;
                }
                int types = u8();
                need(size * 2);
                for (long i = 0; i < size; i++) {
                    Object key = value(types >>> 4, depth + 1);
                    map.put(key, value(types & 0x0F, depth + 1));
                }
                return map;
            }
            case STRUCT:
                return struct(depth + 1);
            case UUID: {
                need(16);
                byte[] bytes = new byte[16];
                in.get(bytes);
                return bytes;
            }
            default:
                throw new MalformedThriftException("unknown field type " + type + " at byte " + in.position());
        }
    }

    private void need(long bytes) throws MalformedThriftException {
        if (bytes < 0 || bytes > in.remaining()) {
            throw new MalformedThriftException("a length of " + bytes + " at byte " + in.position() + " runs past the "
                    + in.remaining() + " bytes left");
        }
    }

    private int u8() throws MalformedThriftException {
        need(1);
        return Byte.toUnsignedInt(in.get());
    }

    private long varint() throws MalformedThriftException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new MalformedThriftException("a variable-length integer longer than 10 bytes at byte " + in.position());
    }

    private static long zigzag(long n) {
        return (n >>> 1) ^ -(n & 1);
    }

    /** The compact-protocol bytes of an i32 field after a field of id {@code id - 1}: header byte, zigzag varint. */
    static void writeI32Field(ByteBuffer out, int value) {
        out.put((byte) (1 << 4 | I32));
        long zz = ((long) value << 1) ^ (value >> 31);
        while ((zz & ~0x7FL) != 0) {
            out.put((byte) ((zz & 0x7F) | 0x80));
            zz >>>= 7;
        }
        out.put((byte) zz);
    }

    /** A struct field after a field of id {@code id - 1}, holding one empty struct as its field 1: a Thrift union of an empty member. */
    static void writeUnionOfEmptyField(ByteBuffer out) {
        out.put((byte) (1 << 4 | STRUCT));
        out.put((byte) (1 << 4 | STRUCT));
        out.put((byte) STOP);
        out.put((byte) STOP);
    }

    static void writeStop(ByteBuffer out) {
        out.put((byte) STOP);
    }
}

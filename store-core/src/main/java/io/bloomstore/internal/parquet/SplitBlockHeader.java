package io.bloomstore.internal.parquet;

import io.bloomstore.internal.parquet.CompactThrift.MalformedThriftException;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Parquet's {@code BloomFilterHeader}: the Thrift compact struct before each filter's bitset, giving
 * its length in bytes and its algorithm (BLOCK), hash (XXHASH) and compression (UNCOMPRESSED), the
 * only values parquet-format defines.
 *
 * @param numBytes the bitset's length in bytes
 * @param headerLength the header's own length in bytes, the bitset following it
 * @param unsupported null if the header is of the one kind defined, else what differs
 */
public record SplitBlockHeader(int numBytes, int headerLength, String unsupported) {
    /** The smallest bitset Parquet writes: one block. */
    public static final int MIN_BYTES = 32;
    /** The largest bitset Parquet writes or reads (parquet-java's BlockSplitBloomFilter.UPPER_BOUND_BYTES). */
    public static final int MAX_BYTES = 128 * 1024 * 1024;
    /** More than any header of the defined kind takes (numBytes as 5 bytes, three unions of 4, stop). */
    public static final int MAX_HEADER_LENGTH = 32;

    /** The ids of the header's fields in parquet-format's Thrift definition of BloomFilterHeader. */
    private static final int NUM_BYTES_FIELD = 1;
    private static final int ALGORITHM_FIELD = 2;
    private static final int HASH_FIELD = 3;
    private static final int COMPRESSION_FIELD = 4;
    /** Member 1 of each of the three unions: BLOCK, XXHASH, UNCOMPRESSED. */
    private static final int DEFINED_MEMBER = 1;

    /**
     * Reads a header from the start of {@code bytes}.
     *
     * @throws MalformedThriftException if it is not a well-formed struct, or has no length, or one
     *     that is not a whole number of 32-byte blocks from {@link #MIN_BYTES} to {@link #MAX_BYTES}
     */
    public static SplitBlockHeader read(ByteBuffer bytes) throws MalformedThriftException {
        CompactThrift.Struct struct = CompactThrift.readStruct(bytes);
        Map<Integer, Object> fields = struct.fields();
        if (!(fields.get(NUM_BYTES_FIELD) instanceof Long numBytes)) {
            throw new MalformedThriftException("a Bloom filter header without its length");
        }
        if (numBytes < MIN_BYTES || numBytes > MAX_BYTES || numBytes % MIN_BYTES != 0) {
            throw new MalformedThriftException("a Bloom filter header claims " + numBytes
                    + " bytes, not a whole number of 32-byte blocks from 32 B to 128 MiB");
        }
        String unsupported = member(fields, ALGORITHM_FIELD, "algorithm");
        if (unsupported == null) {
            unsupported = member(fields, HASH_FIELD, "hash");
        }
        if (unsupported == null) {
            unsupported = member(fields, COMPRESSION_FIELD, "compression");
        }
        return new SplitBlockHeader((int) (long) numBytes, struct.length(), unsupported);
    }

    private static String member(Map<Integer, Object> fields, int field, String name) {
        if (!(fields.get(field) instanceof Map<?, ?> union) || union.size() != 1 || !union.containsKey(DEFINED_MEMBER)) {
            return "an unknown " + name + " (only BLOCK, XXHASH, UNCOMPRESSED are defined)";
        }
        return null;
    }

    /** The header Parquet writes before a bitset of {@code numBytes} bytes. */
    public static ByteBuffer write(int numBytes) {
        ByteBuffer out = ByteBuffer.allocate(MAX_HEADER_LENGTH);
        CompactThrift.writeI32Field(out, numBytes);
        CompactThrift.writeUnionOfEmptyField(out);
        CompactThrift.writeUnionOfEmptyField(out);
        CompactThrift.writeUnionOfEmptyField(out);
        CompactThrift.writeStop(out);
        return out.flip();
    }
}

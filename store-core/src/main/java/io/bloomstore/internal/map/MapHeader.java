package io.bloomstore.internal.map;

import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The 128-byte header of a Bloomier map file, format version 5 (docs/FORMAT.md, "Bloomier maps:
 * format version 5"): the fuse shape, the value and fingerprint widths, the seeds, and a checksum
 * of the table. The file never changes once published, so everything, the checksum included, is
 * under the header's CRC32C and there is no mutable state area.
 *
 * @param valueBits R, the bits of a value: 1 to 55
 * @param fingerprintBits F, the bits that tell a key of the map from another: 1 to 55, R + F at most 56
 * @param segmentLength L, a power of two from 1 to 2^18
 * @param segmentCount S, at least 1; the table has (S + 2) * L slots
 * @param pairs n, the distinct keys stored
 * @param keySeed the XXH3-64 seed of every key hash
 * @param constructionSeed the seed the peeling succeeded with (mixed into the key hash)
 * @param attempts how many seeds the build tried, the last one succeeding (informational)
 * @param createdMillis when the map was built (informational)
 * @param tableChecksum XXH3-64 (seed 0) of the table's bytes, padding included
 */
public record MapHeader(int valueBits, int fingerprintBits, int segmentLength, int segmentCount, long pairs, long keySeed,
        long constructionSeed, int attempts, long createdMillis, long tableChecksum) {
    /** The format version of a Bloomier map; fixed filters are 1, 3 and 4, segmented files 2. */
    public static final int FORMAT_VERSION = 5;
    public static final int HEADER_LENGTH = FilterFileDescriptor.HEADER_LENGTH;
    /** Where the table starts: one page, as a fixed filter's cells. */
    public static final long TABLE_START = FilterFileDescriptor.CELLS_START;
    /** The only construction: a 3-wise binary fuse graph (Graf &amp; Lemire 2022). */
    public static final int CONSTRUCTION_FUSE3 = 1;
    /** XXH3-64, as in filters (HashAlgorithm id 1). */
    public static final int HASH_XXH3_64 = 1;
    public static final int MAX_SLOT_BITS = 56;
    public static final int MAX_SEGMENT_LENGTH = 1 << 18;
    /** Pairs a map holds at most: slot indices stay below 2^31. */
    public static final long MAX_PAIRS = 1_500_000_000L;

    public static final int VERSION_OFFSET = 8;
    public static final int HEADER_LENGTH_OFFSET = 10;
    public static final int CONSTRUCTION_OFFSET = 12;
    public static final int HASH_ALGORITHM_OFFSET = 13;
    public static final int VALUE_BITS_OFFSET = 14;
    public static final int FINGERPRINT_BITS_OFFSET = 15;
    public static final int SEGMENT_LENGTH_OFFSET = 16;
    public static final int SEGMENT_COUNT_OFFSET = 20;
    public static final int PAIRS_OFFSET = 24;
    public static final int KEY_SEED_OFFSET = 32;
    public static final int CONSTRUCTION_SEED_OFFSET = 40;
    public static final int ATTEMPTS_OFFSET = 48;
    public static final int FLAGS_OFFSET = 52;
    public static final int CREATED_OFFSET = 56;
    public static final int TABLE_OFFSET_OFFSET = 64;
    public static final int TABLE_LENGTH_OFFSET = 72;
    public static final int SLOTS_OFFSET = 80;
    public static final int TABLE_CHECKSUM_OFFSET = 88;
    public static final int RESERVED_OFFSET = 96;
    public static final int HEADER_CRC_OFFSET = FilterFileDescriptor.HEADER_CRC_OFFSET;

    /** W = R + F, the bits of one slot. */
    public int slotBits() {
        return valueBits + fingerprintBits;
    }

    /** (S + 2) * L. */
    public long slots() {
        return (long) (segmentCount + 2) * segmentLength;
    }

    /** The table's bytes: the packed slots plus 8 bytes (so every slot is one unaligned 8-byte read), in whole pages. */
    public long tableLength() {
        return tableLength(slots(), slotBits());
    }

    static long tableLength(long slots, int slotBits) {
        long packed = (slots * slotBits + 7) / 8 + Long.BYTES;
        return (packed + TABLE_START - 1) / TABLE_START * TABLE_START;
    }

    public long fileLength() {
        return TABLE_START + tableLength();
    }

    /** The 128 header bytes, CRC included. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, FilterFileDescriptor.MAGIC)
                .putShort(VERSION_OFFSET, (short) FORMAT_VERSION)
                .putShort(HEADER_LENGTH_OFFSET, (short) HEADER_LENGTH)
                .put(CONSTRUCTION_OFFSET, (byte) CONSTRUCTION_FUSE3)
                .put(HASH_ALGORITHM_OFFSET, (byte) HASH_XXH3_64)
                .put(VALUE_BITS_OFFSET, (byte) valueBits)
                .put(FINGERPRINT_BITS_OFFSET, (byte) fingerprintBits)
                .putInt(SEGMENT_LENGTH_OFFSET, segmentLength)
                .putInt(SEGMENT_COUNT_OFFSET, segmentCount)
                .putLong(PAIRS_OFFSET, pairs)
                .putLong(KEY_SEED_OFFSET, keySeed)
                .putLong(CONSTRUCTION_SEED_OFFSET, constructionSeed)
                .putInt(ATTEMPTS_OFFSET, attempts)
                .putInt(FLAGS_OFFSET, 0)
                .putLong(CREATED_OFFSET, createdMillis)
                .putLong(TABLE_OFFSET_OFFSET, TABLE_START)
                .putLong(TABLE_LENGTH_OFFSET, tableLength())
                .putLong(SLOTS_OFFSET, slots())
                .putLong(TABLE_CHECKSUM_OFFSET, tableChecksum);
        byte[] bytes = b.array();
        b.putInt(HEADER_CRC_OFFSET, FilterHeader.crc(bytes));
        return bytes;
    }

    /**
     * Checks the first bytes of a map file in the order docs/FORMAT.md gives ("Opening a Bloomier
     * map"), against the file's length, and decodes them.
     *
     * @param bytes at least the first 128 bytes of the file, or all of it if shorter
     * @throws InvalidFilterFileException naming the first check that fails
     */
    public static MapHeader decode(Path path, byte[] bytes, long fileLength) throws InvalidFilterFileException {
        if (bytes.length < HEADER_LENGTH) {
            throw new InvalidFilterFileException(path, Problem.TOO_SHORT, "too short for a Bloomier map (" + fileLength
                    + " bytes; its header alone has " + HEADER_LENGTH + ")");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getLong(0) != FilterFileDescriptor.MAGIC) {
            throw new InvalidFilterFileException(path, Problem.BAD_MAGIC, "not a bloomstore file (no BLOOMSTR magic number at the start)");
        }
        int version = Short.toUnsignedInt(b.getShort(VERSION_OFFSET));
        if (version != FORMAT_VERSION) {
            throw new InvalidFilterFileException(path, Problem.UNSUPPORTED_VERSION, "format version " + version
                    + " is not a Bloomier map (version " + FORMAT_VERSION + "): it is a filter; query it with 'contains'");
        }
        int stored = b.getInt(HEADER_CRC_OFFSET);
        int actual = FilterHeader.crc(bytes);
        if (stored != actual) {
            throw new InvalidFilterFileException(path, Problem.HEADER_CHECKSUM, String.format(
                    "header is damaged (CRC32C %08x, expected %08x); restore the map from a pack or build it again",
                    actual, stored));
        }
        int valueBits = b.get(VALUE_BITS_OFFSET) & 0xFF;
        int fingerprintBits = b.get(FINGERPRINT_BITS_OFFSET) & 0xFF;
        int segmentLength = b.getInt(SEGMENT_LENGTH_OFFSET);
        int segmentCount = b.getInt(SEGMENT_COUNT_OFFSET);
        long pairs = b.getLong(PAIRS_OFFSET);
        int attempts = b.getInt(ATTEMPTS_OFFSET);
        require(path, Short.toUnsignedInt(b.getShort(HEADER_LENGTH_OFFSET)) == HEADER_LENGTH, "header length "
                + Short.toUnsignedInt(b.getShort(HEADER_LENGTH_OFFSET)) + " (must be " + HEADER_LENGTH + ")");
        require(path, (b.get(CONSTRUCTION_OFFSET) & 0xFF) == CONSTRUCTION_FUSE3, "unknown construction id "
                + (b.get(CONSTRUCTION_OFFSET) & 0xFF) + " (known: 1 binary fuse, 3-wise)");
        require(path, (b.get(HASH_ALGORITHM_OFFSET) & 0xFF) == HASH_XXH3_64, "unknown hash algorithm id "
                + (b.get(HASH_ALGORITHM_OFFSET) & 0xFF) + " (known: 1 XXH3_64)");
        require(path, valueBits >= 1 && fingerprintBits >= 1 && valueBits + fingerprintBits <= MAX_SLOT_BITS,
                "value bits " + valueBits + " and fingerprint bits " + fingerprintBits + " (each at least 1, together at most "
                        + MAX_SLOT_BITS + ")");
        require(path, segmentLength >= 1 && segmentLength <= MAX_SEGMENT_LENGTH && Integer.bitCount(segmentLength) == 1,
                "segment length " + Integer.toUnsignedString(segmentLength) + " (a power of two from 1 to " + MAX_SEGMENT_LENGTH + ")");
        require(path, segmentCount >= 1 && (long) (segmentCount + 2) * segmentLength <= Integer.MAX_VALUE,
                "segment count " + Integer.toUnsignedString(segmentCount) + " (at least 1, and (count + 2) * length below 2^31)");
        long slots = (long) (segmentCount + 2) * segmentLength;
        require(path, pairs >= 0 && pairs <= Math.min(slots, MAX_PAIRS), "pairs " + Long.toUnsignedString(pairs)
                + " (0 to the slots, " + slots + ")");
        require(path, attempts >= 1, "attempts " + Integer.toUnsignedString(attempts) + " (at least 1)");
        require(path, b.getInt(FLAGS_OFFSET) == 0, "flags " + Integer.toHexString(b.getInt(FLAGS_OFFSET)) + " (none is defined)");
        require(path, b.getLong(TABLE_OFFSET_OFFSET) == TABLE_START, "table offset " + b.getLong(TABLE_OFFSET_OFFSET)
                + " (must be " + TABLE_START + ")");
        require(path, b.getLong(SLOTS_OFFSET) == slots, "slots " + b.getLong(SLOTS_OFFSET) + " (must be (segment count + 2)"
                + " * segment length = " + slots + ")");
        long tableLength = tableLength(slots, valueBits + fingerprintBits);
        require(path, b.getLong(TABLE_LENGTH_OFFSET) == tableLength, "table length " + b.getLong(TABLE_LENGTH_OFFSET)
                + " (must be " + tableLength + " for " + slots + " slots of " + (valueBits + fingerprintBits) + " bits)");
        MapHeader header = new MapHeader(valueBits, fingerprintBits, segmentLength, segmentCount, pairs,
                b.getLong(KEY_SEED_OFFSET), b.getLong(CONSTRUCTION_SEED_OFFSET), attempts, b.getLong(CREATED_OFFSET),
                b.getLong(TABLE_CHECKSUM_OFFSET));
        if (fileLength != header.fileLength()) {
            throw new InvalidFilterFileException(path, Problem.LENGTH_MISMATCH, "file is " + fileLength
                    + " bytes but its header says " + header.fileLength() + " (truncated or appended to); restore it"
                    + " from a pack or build it again");
        }
        return header;
    }

    private static void require(Path path, boolean ok, String field) throws InvalidFilterFileException {
        if (!ok) {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "header field out of range: " + field
                    + "; the file is damaged or not written by bloomstore");
        }
    }
}

package io.bloomstore.internal.format;

import io.bloomstore.InvalidFilterFileException;
import static io.bloomstore.internal.format.FilterFileDescriptor.*;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.BloomSpec;
import io.bloomstore.FilterFileInfo;
import io.bloomstore.HashAlgorithm;
import io.bloomstore.Layout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

/**
 * The immutable header of a filter file: its {@link BloomSpec}, when and how it was created, its
 * format version and (version 3) its file identity. {@link #encode()} and {@link #decode} are the
 * only code that knows the header's bytes; the offsets come from {@link FilterFileDescriptor}.
 */
public final class FilterHeader {
    /** The header page plus the one page of cells that even m = 1 takes. */
    private static final long SMALLEST_FILE_LENGTH = CELLS_START + 4096;

    private final int version;
    private final BloomSpec spec;
    /** {@link CellRule#PLAIN} but in a version 4 file. */
    private final CellRule rule;
    private final long createdMillis;
    private final boolean sparse;
    /** Version 3: random, never 0; version 1: 0 (the file has none). */
    private final long identity;
    /**
     * The CRC32C stored in the file's header, which covers the reserved bytes as found: a version 1
     * reader does not check them, so re-encoding the fields may not reproduce it.
     */
    private final int crc32c;

    /** A new header of the current version, with a new random file identity, for a file about to be created. */
    public static FilterHeader newFile(BloomSpec spec, long createdMillis, boolean sparse) {
        return newFile(spec, CellRule.PLAIN, createdMillis, sparse);
    }

    /**
     * A new header for a file whose cells follow {@code rule}: version 4 unless the rule is
     * {@link CellRule#PLAIN}, with a new random file identity.
     *
     * @throws IllegalArgumentException if the rule does not fit the shape (see {@link #checkRule})
     */
    public static FilterHeader newFile(BloomSpec spec, CellRule rule, long createdMillis, boolean sparse) {
        String wrong = checkRule(spec, rule);
        if (wrong != null) {
            throw new IllegalArgumentException(wrong);
        }
        long identity;
        do {
            identity = Identities.SOURCE.nextLong();
        } while (identity == 0);
        return new FilterHeader(versionFor(rule), spec, rule, createdMillis, sparse, identity);
    }

    private static int versionFor(CellRule rule) {
        return rule.isPlain() ? FORMAT_VERSION : CELL_RULE_FORMAT_VERSION;
    }

    /**
     * What is wrong with cells of {@code spec} following {@code rule}, or null: the rules probe the
     * standard layout (a stable filter's decrements of consecutive cells would otherwise fall on
     * the cells of one key's block together); a valued filter's cells are {@link CellRule#cellBitsFor}
     * its value bits.
     */
    static String checkRule(BloomSpec spec, CellRule rule) {
        if (rule.isPlain()) {
            return null;
        }
        if (spec.layout() != Layout.STANDARD) {
            return "a " + rule.label() + " filter has the standard layout, not " + spec.layout().name().toLowerCase(Locale.ROOT);
        }
        if (rule.isValued() && spec.counterBits() != CellRule.cellBitsFor(rule.valueBits())) {
            return "a valued filter of " + rule.valueBits() + " value bits has cells of "
                    + CellRule.cellBitsFor(rule.valueBits()) + " bits, not " + spec.counterBits();
        }
        if (rule.kind() == CellRule.Kind.STABLE && spec.counterBits() > 4) {
            // the model (and so inspect) sums over Max = 2^d - 1 lowerings per cell: 15 at most keeps it instant
            return "a stable filter's cells have 1, 2 or 4 bits, not " + spec.counterBits();
        }
        return null;
    }

    /**
     * A new version 1 header, without identity: a region of a segmented file (docs/FORMAT.md says
     * why those are not bound), or an old-version file for tests.
     */
    public static FilterHeader unbound(BloomSpec spec, long createdMillis, boolean sparse) {
        return new FilterHeader(UNBOUND_FORMAT_VERSION, spec, CellRule.PLAIN, createdMillis, sparse, 0);
    }

    /** A header of the current version with the given (non-zero) identity: for test vectors. */
    static FilterHeader withIdentity(BloomSpec spec, long createdMillis, boolean sparse, long identity) {
        if (identity == 0) {
            throw new IllegalArgumentException("a file identity is never 0");
        }
        return new FilterHeader(FORMAT_VERSION, spec, CellRule.PLAIN, createdMillis, sparse, identity);
    }

    /** A header with the given rule and (non-zero) identity: for test vectors. */
    static FilterHeader withIdentity(BloomSpec spec, CellRule rule, long createdMillis, long identity) {
        return new FilterHeader(versionFor(rule), spec, rule, createdMillis, false, identity);
    }

    private FilterHeader(int version, BloomSpec spec, CellRule rule, long createdMillis, boolean sparse, long identity) {
        this.version = version;
        this.spec = spec;
        this.rule = rule;
        this.createdMillis = createdMillis;
        this.sparse = sparse;
        this.identity = identity;
        this.crc32c = crc(encodeFields());
    }

    private FilterHeader(int version, BloomSpec spec, CellRule rule, long createdMillis, boolean sparse, long identity,
            int storedCrc32c) {
        this.version = version;
        this.spec = spec;
        this.rule = rule;
        this.createdMillis = createdMillis;
        this.sparse = sparse;
        this.identity = identity;
        this.crc32c = storedCrc32c;
    }

    /**
     * {@link FilterFileDescriptor#FORMAT_VERSION}, {@link FilterFileDescriptor#UNBOUND_FORMAT_VERSION}
     * or {@link FilterFileDescriptor#CELL_RULE_FORMAT_VERSION}.
     */
    public int version() {
        return version;
    }

    /** What an add does to the cells: {@link CellRule#PLAIN} unless the file is version 4. */
    public CellRule rule() {
        return rule;
    }

    /** Whether the file has an identity binding its header, state and cells (versions 3 and 4). */
    public boolean isBound() {
        return version != UNBOUND_FORMAT_VERSION;
    }

    /** The file identity (version 3), 0 for a version 1 file: the seed of its cells checksum. */
    public long identity() {
        return identity;
    }

    public BloomSpec spec() {
        return spec;
    }

    /** Creation time, milliseconds since the epoch. */
    public long createdMillis() {
        return createdMillis;
    }

    /** Whether the cells were created without allocating them on disk. */
    public boolean sparse() {
        return sparse;
    }

    /** The exact length a file with this header has: the header page plus the cells. */
    public long fileLength() {
        return FilterFileDescriptor.CELLS_START + spec.cellBytes();
    }

    /** The header's CRC32C as stored in the file it was read from (else as {@link #encode()} writes it). */
    public int crc32c() {
        return crc32c;
    }

    /** This header as the API reports it: the file's format, shape and where its cells lie. */
    public FilterFileInfo info() {
        return new FilterFileInfo(version, HEADER_LENGTH, crc32c, Instant.ofEpochMilli(createdMillis), sparse,
                CELLS_START, spec.cellBytes(), fileLength(), spec,
                isBound() ? OptionalLong.of(identity) : OptionalLong.empty());
    }

    /** The {@link #HEADER_LENGTH} header bytes, CRC32C included. */
    public byte[] encode() {
        byte[] bytes = encodeFields();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(HEADER_CRC_OFFSET, crc(bytes));
        return bytes;
    }

    /**
     * The whole first page of a new file with this header: the header, then the state area of a
     * new file (zero, but for the copy of the file identity), then zeros up to the cells.
     */
    public ByteBuffer newFilePage() {
        ByteBuffer page = ByteBuffer.allocate(CELLS_START).order(ByteOrder.LITTLE_ENDIAN);
        page.put(encode());
        page.putLong(IDENTITY_COPY_OFFSET, identity);
        return page.clear();
    }

    /**
     * Where identities come from: a strong source, since they must differ between files made at the
     * same instant by different processes. A holder, so that only a process that creates a file
     * pays for seeding it (every command reads headers; few create files).
     */
    private static final class Identities {
        static final SecureRandom SOURCE = new SecureRandom();
    }

    /** The header bytes with the CRC32C left zero. */
    private byte[] encodeFields() {
        ByteBuffer b = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC_OFFSET, MAGIC);
        b.putShort(VERSION_OFFSET, (short) version);
        b.putShort(HEADER_LENGTH_OFFSET, (short) HEADER_LENGTH);
        b.put(LAYOUT_OFFSET, (byte) FormatIds.of(spec.layout()));
        b.put(HASH_ALGORITHM_OFFSET, (byte) FormatIds.of(spec.hashAlgorithm()));
        b.put(COUNTER_BITS_OFFSET, (byte) spec.counterBits());
        b.putInt(HASHES_OFFSET, spec.hashes());
        b.putInt(FLAGS_OFFSET, sparse ? FLAG_SPARSE : 0);
        b.putLong(CELL_COUNT_OFFSET, spec.cells());
        b.putLong(SEED_OFFSET, spec.seed());
        b.putLong(EXPECTED_KEYS_OFFSET, spec.expectedKeys());
        b.putDouble(TARGET_FPP_OFFSET, spec.targetFpp());
        b.putLong(CREATED_MILLIS_OFFSET, createdMillis);
        b.putLong(CELLS_START_OFFSET, CELLS_START);
        b.putLong(CELLS_LENGTH_OFFSET, spec.cellBytes());
        b.putLong(FILE_IDENTITY_OFFSET, identity);
        if (spec.parquetType() != null) {
            b.put(LAYOUT_PARAMETER_OFFSET, (byte) FormatIds.of(spec.parquetType()));
        }
        if (!rule.isPlain()) {
            b.put(CELL_RULE_OFFSET, (byte) rule.kind().id());
            b.put(VALUE_BITS_OFFSET, (byte) rule.valueBits());
            b.putLong(DECREMENTS_OFFSET, rule.decrements());
        }
        return b.array();
    }

    /**
     * Reads and checks a header.
     *
     * @param path the file, for messages
     * @param bytes at least the first {@code min(fileLength, HEADER_LENGTH)} bytes of the file
     * @param fileLength the file's length, checked against the header
     * @throws InvalidFilterFileException naming the first thing found wrong, in this order:
     *     length, magic, version, CRC32C, field ranges, file length
     */
    public static FilterHeader decode(Path path, byte[] bytes, long fileLength) throws InvalidFilterFileException {
        return decode(path, bytes, fileLength, false);
    }

    /**
     * Reads and checks the header of a region of a segmented file, which is a version 1 file
     * (docs/FORMAT.md, "Segmented files"), as {@link #decode(Path, byte[], long)} checks a file.
     */
    public static FilterHeader decodeRegion(Path path, byte[] bytes, long regionLength) throws InvalidFilterFileException {
        return decode(path, bytes, regionLength, true);
    }

    private static FilterHeader decode(Path path, byte[] bytes, long fileLength, boolean region)
            throws InvalidFilterFileException {
        if (fileLength < HEADER_LENGTH || bytes.length < HEADER_LENGTH) {
            throw new InvalidFilterFileException(path, Problem.TOO_SHORT, "too short to be a bloomstore filter ("
                    + fileLength + " bytes; a filter has at least " + SMALLEST_FILE_LENGTH + ")");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getLong(MAGIC_OFFSET) != MAGIC) {
            throw new InvalidFilterFileException(path, Problem.BAD_MAGIC,
                    "not a bloomstore filter (no BLOOMSTR magic number at the start)");
        }
        int version = Short.toUnsignedInt(b.getShort(VERSION_OFFSET));
        boolean readable = version == UNBOUND_FORMAT_VERSION
                || ((version == FORMAT_VERSION || version == CELL_RULE_FORMAT_VERSION) && !region);
        if (!readable) {
            throw new InvalidFilterFileException(path, Problem.UNSUPPORTED_VERSION, "format version " + version
                    + " is not supported " + (region ? "for a region of a growing or windowed file (those are version "
                    + UNBOUND_FORMAT_VERSION : "(this bloomstore reads versions " + UNBOUND_FORMAT_VERSION + ", "
                    + FORMAT_VERSION + " and " + CELL_RULE_FORMAT_VERSION) + "); use the bloomstore release that wrote it");
        }
        int storedCrc = b.getInt(HEADER_CRC_OFFSET);
        int actualCrc = crc(bytes);
        if (storedCrc != actualCrc) {
            throw new InvalidFilterFileException(path, Problem.HEADER_CHECKSUM, String.format(
                    "header is damaged (CRC32C %08x, expected %08x); restore the file from a pack or rebuild it",
                    actualCrc, storedCrc));
        }
        BloomSpec spec = decodeSpec(path, b);
        int flags = b.getInt(FLAGS_OFFSET);
        long created = b.getLong(CREATED_MILLIS_OFFSET);
        // Version 1 bytes 80-87 are reserved: ignored, whatever they hold.
        boolean bound = version != UNBOUND_FORMAT_VERSION;
        long identity = bound ? b.getLong(FILE_IDENTITY_OFFSET) : 0;
        if (bound && identity == 0) {
            throw badField(path, "file identity", identity, "must not be 0 in version " + version);
        }
        CellRule rule = version == CELL_RULE_FORMAT_VERSION ? decodeRule(path, b, spec) : CellRule.PLAIN;
        FilterHeader header = new FilterHeader(version, spec, rule, created, (flags & FLAG_SPARSE) != 0, identity, storedCrc);
        if (b.getLong(CELLS_START_OFFSET) != CELLS_START) {
            throw badField(path, "cells offset", b.getLong(CELLS_START_OFFSET), "must be " + CELLS_START);
        }
        if (b.getLong(CELLS_LENGTH_OFFSET) != spec.cellBytes()) {
            throw badField(path, "cells length", b.getLong(CELLS_LENGTH_OFFSET),
                    "must be " + spec.cellBytes() + " for m=" + spec.cells() + ", w=" + spec.counterBits());
        }
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw badField(path, "flags", flags, "only bit 0 (sparse) is defined in version " + version);
        }
        if (fileLength != header.fileLength()) {
            throw new InvalidFilterFileException(path, Problem.LENGTH_MISMATCH, "file is " + fileLength
                    + " bytes but its header describes " + header.fileLength()
                    + " (truncated or appended to); restore it from a pack or rebuild it");
        }
        return header;
    }

    private static BloomSpec decodeSpec(Path path, ByteBuffer b) throws InvalidFilterFileException {
        int headerLength = Short.toUnsignedInt(b.getShort(HEADER_LENGTH_OFFSET));
        if (headerLength != HEADER_LENGTH) {
            throw badField(path, "header length", headerLength, "must be " + HEADER_LENGTH);
        }
        BloomSpec.Builder builder = BloomSpec.builder();
        try {
            Layout layout = FormatIds.layout(Byte.toUnsignedInt(b.get(LAYOUT_OFFSET)));
            if (layout == Layout.SBBF) {
                // First: it sets the hash and seed Parquet's filters have, which the header's must then be.
                builder.parquetType(FormatIds.parquetType(Byte.toUnsignedInt(b.get(LAYOUT_PARAMETER_OFFSET))));
            }
            builder.layout(layout)
                    .hashAlgorithm(FormatIds.hashAlgorithm(Byte.toUnsignedInt(b.get(HASH_ALGORITHM_OFFSET))))
                    .counterBits(Byte.toUnsignedInt(b.get(COUNTER_BITS_OFFSET)))
                    .hashes(b.getInt(HASHES_OFFSET))
                    .cells(b.getLong(CELL_COUNT_OFFSET))
                    .seed(b.getLong(SEED_OFFSET));
            long n = b.getLong(EXPECTED_KEYS_OFFSET);
            double p = b.getDouble(TARGET_FPP_OFFSET);
            if (n != 0) {
                builder.expectedKeys(n);
            }
            if (p != 0) {
                builder.fpp(p);
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "header field out of range: " + e.getMessage(), e);
        }
        BloomSpec spec;
        try {
            spec = builder.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "header fields do not agree: " + e.getMessage(), e);
        }
        if (spec.cells() != b.getLong(CELL_COUNT_OFFSET)) {
            throw badField(path, "cells", b.getLong(CELL_COUNT_OFFSET),
                    "a " + spec.layout().name().toLowerCase(Locale.ROOT)
                            + " filter's cells must fill whole blocks of " + spec.cellsPerBlock());
        }
        return spec;
    }

    /** The cell rule of a version 4 header, checked against its shape. */
    private static CellRule decodeRule(Path path, ByteBuffer b, BloomSpec spec) throws InvalidFilterFileException {
        int id = Byte.toUnsignedInt(b.get(CELL_RULE_OFFSET));
        CellRule.Kind kind = CellRule.Kind.ofId(id);
        if (kind == null) {
            throw badField(path, "cell rule", id, "known: 1 stable, 2 max, 3 min; a newer bloomstore may read it");
        }
        int valueBits = Byte.toUnsignedInt(b.get(VALUE_BITS_OFFSET));
        long decrements = b.getLong(DECREMENTS_OFFSET);
        CellRule rule;
        if (kind == CellRule.Kind.STABLE) {
            if (valueBits != 0) {
                throw badField(path, "value bits", valueBits, "must be 0 in a stable filter");
            }
            if (decrements < 1) {
                throw badField(path, "decrements", decrements, "must be at least 1 in a stable filter");
            }
            rule = CellRule.stable(decrements);
        } else {
            if (valueBits < 1 || valueBits > CellRule.MAX_VALUE_BITS) {
                throw badField(path, "value bits", valueBits, "must be 1 to " + CellRule.MAX_VALUE_BITS);
            }
            if (decrements != 0) {
                throw badField(path, "decrements", decrements, "must be 0 in a valued filter");
            }
            rule = CellRule.valued(kind == CellRule.Kind.MAX, valueBits);
        }
        String wrong = checkRule(spec, rule);
        if (wrong != null) {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "header fields do not agree: " + wrong);
        }
        return rule;
    }

    private static InvalidFilterFileException badField(Path path, String field, long value, String rule) {
        return new InvalidFilterFileException(path, Problem.BAD_FIELD,
                "header field " + field + " is " + value + ": " + rule);
    }

    /** CRC32C of header bytes 0 .. 123: the checksum of a version 1 header, a container header and a map header alike. */
    public static int crc(byte[] header) {
        CRC32C crc = new CRC32C();
        crc.update(header, 0, HEADER_CRC_OFFSET);
        return (int) crc.getValue();
    }
}

package io.bloomstore.internal.format;

/**
 * Where every field of a filter file lies: the one description of the binary layout, after
 * Agrona's {@code *Descriptor} classes. All values little-endian. docs/FORMAT.md says the same in
 * prose, with test vectors.
 *
 * <p>The picture is drawn to scale from the constants below: a row is 8 bytes, a byte 8 columns
 * (the ruler numbers the bytes of a row), the number on the right is the row's offset, and a row
 * that starts blank continues the field above it. {@code FilterFileDescriptorPictureTest} parses
 * it and fails if a field here, a constant and docs/FORMAT.md's tables disagree.
 *
 * <pre>
 *   0       1       2       3       4       5       6       7       8
 *   +-------+-------+-------+-------+-------+-------+-------+-------+
 *   |                     magic "BLOOMSTR" (u64)                    |    0
 *   +---------------+---------------+-------+-------+-------+-------+
 *   | version (u16) | hdr len (u16) | layout|  hash |   w   |  rsv  |    8
 *   +---------------+---------------+-------+-------+-------+-------+
 *   |         hashes k (u32)        |          flags (u32)          |   16
 *   +-------------------------------+-------------------------------+
 *   |                         cells m (u64)                         |   24
 *   +---------------------------------------------------------------+
 *   |                           seed (u64)                          |   32
 *   +---------------------------------------------------------------+
 *   |              expected keys n (i64, 0 = not given)             |   40
 *   +---------------------------------------------------------------+
 *   |               target fpp p (f64, 0 = not given)               |   48
 *   +---------------------------------------------------------------+
 *   |             created (i64, ms since the epoch, UTC)            |   56
 *   +---------------------------------------------------------------+
 *   |                   cells offset (u64) = 4096                   |   64
 *   +---------------------------------------------------------------+
 *   |                   cells length (u64, bytes)                   |   72
 *   +---------------------------------------------------------------+
 *   |           file identity (u64, random; version 1: 0)           |   80
 *   +-------+-------+-------+-------+-------------------------------+
 *   | param |  rsv  |  rule |   W   |          reserved (4)         |   88
 *   +-------+-------+-------+-------+-------------------------------+
 *   |          decrements P (u64; version 4, else reserved)         |   96
 *   +---------------------------------------------------------------+
 *   |                         reserved (20)                         |  104
 *   |                                                               |  112
 *   +-------------------------------+-------------------------------+
 *   |                               |          CRC32C (u32)         |  120  of bytes 0..123
 *   +===============================================================+
 *   |            approximate insertions (u64, atomic add)           |  128  mutable state:
 *   +-------------------------------+-------------------------------+
 *   |       open writers (u32)      |        seal state (u32)       |  136  its own cache line
 *   +-------------------------------+-------------------------------+
 *   |      cells checksum (u64, XXH3-64 seeded by the identity)     |  144
 *   +---------------------------------------------------------------+
 *   |            file identity, copy (u64; version 1: 0)            |  152
 *   +---------------------------------------------------------------+
 *   |                  lowerings (u64, atomic add)                  |  160
 *   +---------------------------------------------------------------+
 *   |                         reserved (24)                         |  168
 *   |                                                               |  176
 *   |                                                               |  184
 *   +===============================================================+
 *   |                  zero up to the page boundary                 |  192
 *   +===============================================================+
 *   |       cells: m cells of w bits in u64 words, whole pages      | 4096
 *   +---------------------------------------------------------------+
 * </pre>
 *
 * hash: the hash algorithm's id; w: bits per cell (1 for a plain filter); rsv: reserved, zero;
 * param: the layout parameter (the sbbf layout's Parquet physical type, else 0); rule and W: the
 * cell rule and value bits of version 4 (reserved, zero, in versions 1 and 3).
 *
 * <p>The immutable header is written once, at creation, and guarded by its CRC32C; the mutable
 * state is updated in place with atomic operations and is not covered by it. The file identity,
 * drawn at random when the file is created and written both into the header and into the state,
 * binds them and the cells to each other: it seeds the cells checksum, so a header moved onto
 * another file is told from damage (docs/FORMAT.md, "File identity").
 */
public final class FilterFileDescriptor {
    /** "BLOOMSTR" read as a little-endian u64. */
    public static final long MAGIC = 0x5254534D4F4F4C42L;
    /** The format version this code writes for a fixed filter: version 1 plus the file identity. */
    public static final int FORMAT_VERSION = 3;
    /**
     * The first format version, without a file identity: still read, checked, sealed, merged and
     * packed as it always was; written only as the regions of a segmented file.
     */
    public static final int UNBOUND_FORMAT_VERSION = 1;
    /**
     * Version 3 plus a cell rule other than "set a bit / count" ({@link CellRule}): a stable or a
     * valued filter. Written only for such files, so that a reader that predates the rules refuses
     * them by their version instead of reading their cells as bits or counts.
     */
    public static final int CELL_RULE_FORMAT_VERSION = 4;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int HEADER_LENGTH_OFFSET = 10;
    public static final int LAYOUT_OFFSET = 12;
    public static final int HASH_ALGORITHM_OFFSET = 13;
    public static final int COUNTER_BITS_OFFSET = 14;
    public static final int RESERVED_BYTE_OFFSET = 15;
    public static final int HASHES_OFFSET = 16;
    public static final int FLAGS_OFFSET = 20;
    /** The cell count m; where the cells start is the field at {@link #CELLS_START_OFFSET}. */
    public static final int CELL_COUNT_OFFSET = 24;
    public static final int SEED_OFFSET = 32;
    public static final int EXPECTED_KEYS_OFFSET = 40;
    public static final int TARGET_FPP_OFFSET = 48;
    public static final int CREATED_MILLIS_OFFSET = 56;
    public static final int CELLS_START_OFFSET = 64;
    public static final int CELLS_LENGTH_OFFSET = 72;
    /** Version 3: the file identity, a random non-zero u64 (version 1: reserved, zero). */
    public static final int FILE_IDENTITY_OFFSET = 80;
    /**
     * One byte whose meaning belongs to the layout: the sbbf layout's Parquet physical type; written
     * 0 and ignored by readers for the other layouts (it was reserved before the sbbf layout).
     */
    public static final int LAYOUT_PARAMETER_OFFSET = 88;
    /** Bytes 89 to 123 are reserved (written 0, ignored), but for the version 4 fields within them. */
    public static final int RESERVED_OFFSET = 89;
    /** Version 4: the cell rule's id, a u8 ({@link CellRule.Kind}); reserved before. */
    public static final int CELL_RULE_OFFSET = 90;
    /** Version 4: a valued filter's value bits W, a u8; 0 for a stable filter. */
    public static final int VALUE_BITS_OFFSET = 91;
    /** Version 4: a stable filter's decrements per add P, a u64; 0 for a valued filter. */
    public static final int DECREMENTS_OFFSET = 96;
    public static final int HEADER_CRC_OFFSET = 124;
    /** Length of the immutable header, CRC included. */
    public static final int HEADER_LENGTH = 128;

    /** Flag bit: the cells were created sparse (not allocated on disk). Informational. */
    public static final int FLAG_SPARSE = 1;
    /** The flags this version knows; a file with others set is refused. */
    public static final int KNOWN_FLAGS = FLAG_SPARSE;

    /** Start of the mutable state: its own cache line, so header reads never share it with writers. */
    public static final int STATE_OFFSET = 128;
    public static final int APPROXIMATE_INSERTIONS_OFFSET = STATE_OFFSET;
    public static final int OPEN_WRITERS_OFFSET = STATE_OFFSET + 8;
    public static final int SEAL_STATE_OFFSET = STATE_OFFSET + 12;
    public static final int CELLS_CHECKSUM_OFFSET = STATE_OFFSET + 16;
    /** Version 3: the header's file identity again, written at creation, never changed. */
    public static final int IDENTITY_COPY_OFFSET = STATE_OFFSET + 24;
    /**
     * How many times a writer lowered cells (a remove, an in-place AND merge): a checkpoint tells by
     * it whether its copy may hold larger cells than the live file without being newer. Files written
     * before it existed hold {@code 0} there.
     */
    public static final int LOWERINGS_OFFSET = STATE_OFFSET + 32;
    public static final int STATE_LENGTH = 64;

    /** Seal state: the cells may have changed since the last checksum. */
    public static final int UNSEALED = 0;
    /** Seal state: the cells checksum matches the cells, and no writer has opened the file since. */
    public static final int SEALED = 1;

    /** Where the cells start: one page, so the cells are page-aligned for the mapping. */
    public static final int CELLS_START = 4096;

    private FilterFileDescriptor() {
    }
}

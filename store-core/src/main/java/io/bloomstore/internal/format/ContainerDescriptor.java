package io.bloomstore.internal.format;

/**
 * Where every field of a segmented filter file lies (format version 2: a growing chain or a
 * time-windowed ring of filters in one file). docs/FORMAT.md, "Segmented files", says the same in
 * prose, with test vectors. All values little-endian.
 *
 * <pre>
 *   0     container header, 128 bytes, CRC32C at 124           (written once, at creation)
 *   128   shared state, 64 bytes: its own cache line            (atomic words)
 *   192   zero
 *   256   region table: TABLE_ENTRIES entries of 32 bytes       (an entry is written before it is published)
 *   4096  region 0: a complete version 1 filter image (header page + cells)
 *   ...   region 1, 2, ...: each starts where the previous ends, so every region (and its cells) is page-aligned
 * </pre>
 *
 * A region is byte for byte a version 1 filter file (docs/FORMAT.md, "Layout of a file") placed at
 * its table offset: its own header, CRC and state area (whose approximate insertions count that
 * region's keys), then its cells. The same code checks, probes and scans a region and a file.
 */
public final class ContainerDescriptor {
    /** The format version of segmented files; version 1 readers refuse it. */
    public static final int FORMAT_VERSION = 2;

    public static final int KIND_OFFSET = 15;
    public static final int TABLE_CAPACITY_OFFSET = 16;
    public static final int FLAGS_OFFSET = 20;
    public static final int EXPECTED_KEYS_OFFSET = 24;
    public static final int TARGET_FPP_OFFSET = 32;
    public static final int SEED_OFFSET = 40;
    public static final int CREATED_MILLIS_OFFSET = 48;
    /** Growing: growth factor s (f64). Windowed: window length in milliseconds, L * E (u64). */
    public static final int PARAMETER_1_OFFSET = 56;
    /** Growing: tightening ratio r (f64). Windowed: epochs L (u64). */
    public static final int PARAMETER_2_OFFSET = 64;
    /** Growing: the most bytes the file may grow to, 0 for no limit (u64). Windowed: epoch length E in ms (u64). */
    public static final int PARAMETER_3_OFFSET = 72;
    public static final int RESERVED_OFFSET = 80;

    /** Kind byte: a growing chain of segments. */
    public static final int KIND_GROWING = 1;
    /** Kind byte: a time-windowed ring of slots. */
    public static final int KIND_WINDOWED = 2;

    /** Growing: segments published (u64). Windowed: the current epoch (i64). Written after what it publishes. */
    public static final int COUNT_OFFSET = 128;
    /** The step lock (growth or rotation): 0 free, else the owner's stamp (see ContainerState). */
    public static final int LOCK_OFFSET = 136;
    /**
     * Windowed: the file's clock, as the offset in ms of its clock owner's clock from the system
     * clock (i64), set when the owner claims the file and at each rotation it makes.
     */
    public static final int CLOCK_OFFSET_OFFSET = 176;
    /** Windowed: the stamp (as the lock's) of the process whose clock the file's epochs follow; 0 while unclaimed. */
    public static final int CLOCK_OWNER_OFFSET = 184;

    public static final int TABLE_OFFSET = 256;
    public static final int ENTRY_LENGTH = 32;
    /** The ENTRY_*_OFFSET fields lie at these offsets from the start of their entry, not of the file. */
    public static final int ENTRY_REGION_OFFSET_OFFSET = 0;
    public static final int ENTRY_REGION_LENGTH_OFFSET = 8;
    /** Windowed: the epoch whose keys the slot holds, or {@link #CLEARING}. Growing: 0. */
    public static final int ENTRY_EPOCH_OFFSET = 16;
    /** Entries that fit between the table's start and the first region. */
    public static final int TABLE_ENTRIES = (4096 - TABLE_OFFSET) / ENTRY_LENGTH;
    /** A slot's epoch while it is being cleared: never a real epoch, so no query probes it. */
    public static final long CLEARING = Long.MIN_VALUE;

    /** Where region 0 starts: the container's own page ends there. */
    public static final int FIRST_REGION = 4096;

    private ContainerDescriptor() {
    }
}

package io.bloomstore.internal.segment;

import static io.bloomstore.internal.format.ContainerDescriptor.*;

import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.FilterFileDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The container page of a segmented file as bytes read at once, not mapped: the snapshot a pack
 * takes of a live file, or the page of a pack being restored. It is checked as opening checks a
 * mapped file (docs/FORMAT.md, "Opening a segmented file", steps 4–6 and 8–10 but the regions' own
 * headers, which lie further on), with the same checks: {@link #publishedRegions} and
 * {@link #checkEntry} are the ones {@link SegmentedFile} applies to its mapped table.
 */
public final class ContainerImage {
    private final ContainerHeader header;
    private final long count;
    private final long lock;
    private final long fileLength;
    private final long[] offsets;
    private final long[] lengths;
    private final long[] epochs;

    private ContainerImage(ContainerHeader header, long count, long lock, long fileLength, long[] offsets,
            long[] lengths, long[] epochs) {
        this.header = header;
        this.count = count;
        this.lock = lock;
        this.fileLength = fileLength;
        this.offsets = offsets;
        this.lengths = lengths;
        this.epochs = epochs;
    }

    /**
     * Checks {@code page} (the first {@value ContainerDescriptor#FIRST_REGION} bytes of a file of
     * {@code fileLength} bytes, or fewer if the file is shorter) and the published entries of its table.
     *
     * @throws InvalidFilterFileException as opening the file would
     */
    public static ContainerImage decode(Path path, byte[] page, long fileLength) throws InvalidFilterFileException {
        ContainerHeader header = ContainerHeader.decode(path, page);
        if (fileLength < FIRST_REGION || page.length < FIRST_REGION) {
            throw new InvalidFilterFileException(path, Problem.TOO_SHORT, "is " + Math.min(fileLength, page.length)
                    + " bytes, shorter than its container page");
        }
        ByteBuffer b = ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN);
        long count = b.getLong(COUNT_OFFSET);
        int regions = publishedRegions(path, header, count);
        long[] offsets = new long[regions];
        long[] lengths = new long[regions];
        long[] epochs = new long[regions];
        long expected = FIRST_REGION;
        for (int i = 0; i < regions; i++) {
            int entry = TABLE_OFFSET + i * ENTRY_LENGTH;
            offsets[i] = b.getLong(entry + ENTRY_REGION_OFFSET_OFFSET);
            lengths[i] = b.getLong(entry + ENTRY_REGION_LENGTH_OFFSET);
            epochs[i] = b.getLong(entry + ENTRY_EPOCH_OFFSET);
            checkEntry(path, i, offsets[i], lengths[i], expected, fileLength);
            expected = offsets[i] + lengths[i];
        }
        return new ContainerImage(header, count, b.getLong(LOCK_OFFSET), fileLength, offsets, lengths, epochs);
    }

    /**
     * The regions a reader may use: the published segment count of a chain (which must be in
     * [1, table capacity]), every slot of a ring.
     */
    static int publishedRegions(Path path, ContainerHeader header, long count) throws InvalidFilterFileException {
        if (!header.isGrowing()) {
            return header.tableCapacity();
        }
        if (count < 1 || count > header.tableCapacity()) {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "segment count is " + count
                    + ": must be in [1, " + header.tableCapacity() + "]");
        }
        return (int) count;
    }

    /**
     * Checks entry {@code i} of a table: it starts at {@code expected} (where region i - 1 ends)
     * and holds at least a header page within the file's {@code fileLength} bytes.
     */
    static void checkEntry(Path path, int i, long offset, long length, long expected, long fileLength)
            throws InvalidFilterFileException {
        if (offset != expected) {
            throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "region " + i + " starts at " + offset
                    + ": must start at " + expected + ", where region " + (i - 1) + " ends");
        }
        if (length < FilterFileDescriptor.CELLS_START || offset + length > fileLength || offset + length < offset) {
            throw new InvalidFilterFileException(path, Problem.LENGTH_MISMATCH, "region " + i + " (" + length
                    + " bytes at " + offset + ") does not fit in the file's " + fileLength
                    + " bytes (truncated?); restore it from a pack");
        }
    }

    /** The container header. */
    public ContainerHeader header() {
        return header;
    }

    /** The count word: a chain's published segments, a ring's current epoch. */
    public long count() {
        return count;
    }

    /** The step lock word: 0 when no growth or rotation was under way. */
    public long lock() {
        return lock;
    }

    /** The length of the file the page was checked against. */
    public long fileLength() {
        return fileLength;
    }

    /** The regions published: a chain's segments, a ring's slots. */
    public int regions() {
        return offsets.length;
    }

    /** Where region {@code i} starts. */
    public long offset(int i) {
        return offsets[i];
    }

    /** Region {@code i}'s bytes (its own header says the same; the region's check compares them). */
    public long length(int i) {
        return lengths[i];
    }

    /** The epoch slot {@code i} holds (windowed), or {@link ContainerDescriptor#CLEARING}; 0 for a segment. */
    public long epoch(int i) {
        return epochs[i];
    }
}

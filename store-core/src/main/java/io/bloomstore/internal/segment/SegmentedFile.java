package io.bloomstore.internal.segment;

import static io.bloomstore.internal.format.ContainerDescriptor.*;

import io.bloomstore.BloomSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.cells.FileMapping;
import io.bloomstore.internal.cells.MappingFaults;
import io.bloomstore.internal.cells.MappingFlags;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.files.TemporaryFile;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

/**
 * An open segmented file (format version 2): one descriptor, the container page mapped for the
 * header, shared state and region table, and each published region mapped on its own
 * ({@link Segment}) as it becomes known, so a file that grows keeps every existing mapping valid.
 *
 * <p>Multi-step changes of the file (adding a region, clearing slots) are done under the step lock
 * ({@link #tryLock}), a word of the shared state holding its owner's process stamp. A process
 * killed while holding it leaves the stamp of a process that no longer runs; the next process to
 * try the lock takes it over and redoes the step, which is written so that doing it again from any
 * point gives the same file. A live owner's lock is never taken over, even from a stopped process:
 * its writes, resumed, would land on what another process did meanwhile; a waiter gives up after a
 * bounded wait instead ({@link io.bloomstore.internal.format.StepLockWait}).
 */
public final class SegmentedFile implements AutoCloseable {
    /** How {@link #tryLock} went. */
    public enum Lock {
        /** Taken: it was free. */
        ACQUIRED,
        /** Taken over from an owner that crashed in the middle of a step: finish or redo the step. */
        RECOVERED,
        /** Held by a live owner (this or another process); its step will be published. */
        BUSY
    }

    private static final long THIS_PROCESS = ContainerState.stampOfThisProcess();

    private final Path path;
    private final FileChannel channel;
    private final FileMapping page;
    private final ContainerHeader header;
    private final ContainerState state;
    private final boolean readOnly;
    private volatile Segment[] regions = new Segment[0];
    /** A ring's slot shape once checked against the sizing; guarded by this. */
    private BloomSpec checkedShape;
    private volatile boolean closed;

    private SegmentedFile(Path path, FileChannel channel, FileMapping page, ContainerHeader header, boolean readOnly) {
        this.path = path;
        this.channel = channel;
        this.page = page;
        this.header = header;
        this.state = new ContainerState(page.store());
        this.readOnly = readOnly;
    }

    /**
     * Creates the file atomically (temporary file, forced, renamed): the container page with
     * {@code count} in the count word, then {@code regions} empty regions, each entry of the
     * table pointing at its region, slot i holding epoch {@code slotEpochs[i]}.
     */
    public static void create(Path path, ContainerHeader header, int regions, long[] slotEpochs, long count,
            boolean replace) throws IOException {
        List<BloomSpec> specs = header.regionSpecs(regions);
        FilterFiles.publish(path, replace, checkedLength(path, header, specs), false, newFile(header, specs, slotEpochs, count));
    }

    /**
     * Writes the file {@link #create} would publish into {@code temporary}, through its own
     * channel, for a caller that fills it and publishes it itself (a build).
     */
    public static void createIn(TemporaryFile temporary, ContainerHeader header, int regions, long[] slotEpochs,
            long count) throws IOException {
        Path target = TemporaryFile.userFacing(temporary.path());
        List<BloomSpec> specs = header.regionSpecs(regions);
        long length = checkedLength(target, header, specs);
        FilterFiles.requireSpace(target, length, false);
        try {
            newFile(header, specs, slotEpochs, count).writeTo(temporary.channel(), temporary);
        } catch (IOException e) {
            throw FilterFiles.cannotWrite(target, length, false, e);
        }
    }

    /** The length of a new file of regions shaped {@code specs}, refused if above the max size or beyond this JVM's mappings. */
    private static long checkedLength(Path path, ContainerHeader header, List<BloomSpec> specs) {
        long length = FIRST_REGION;
        for (BloomSpec spec : specs) {
            length += ContainerHeader.regionLength(spec);
        }
        if (header.isGrowing() && header.maxBytes() > 0 && length > header.maxBytes()) {
            throw new IllegalArgumentException("max size " + header.maxBytes() + " bytes is below the first segment's "
                    + length + " bytes; raise it or size the first segment smaller");
        }
        for (BloomSpec spec : specs) {
            MappingFlags.require(path, ContainerHeader.regionLength(spec)); // each region is mapped on its own
        }
        return length;
    }

    /** The content of a new file: the container page, then an empty region of each shape in {@code specs}. */
    private static FilterFiles.Content newFile(ContainerHeader header, List<BloomSpec> specs, long[] slotEpochs,
            long count) {
        long[] lengths = specs.stream().mapToLong(ContainerHeader::regionLength).toArray();
        return (channel, temporary) -> {
            FilterFiles.writeFully(channel, containerPage(header, count, lengths, slotEpochs));
            for (BloomSpec spec : specs) {
                FilterFiles.writeEmptyFilter(channel, FilterHeader.unbound(spec, header.createdMillis(), false));
            }
        };
    }

    /**
     * The container page of a new file (the step lock free): {@code header}, {@code count} in the
     * count word, and a table of {@code lengths.length} regions laid end to end from
     * {@link ContainerDescriptor#FIRST_REGION}, region i of {@code lengths[i]} bytes holding epoch
     * {@code epochs[i]}.
     */
    public static ByteBuffer containerPage(ContainerHeader header, long count, long[] lengths, long[] epochs) {
        ByteBuffer page = ByteBuffer.allocate(FIRST_REGION).order(ByteOrder.LITTLE_ENDIAN);
        page.put(header.encode());
        page.putLong(COUNT_OFFSET, count);
        long offset = FIRST_REGION;
        for (int i = 0; i < lengths.length; i++) {
            int entry = TABLE_OFFSET + i * ENTRY_LENGTH;
            page.putLong(entry + ENTRY_REGION_OFFSET_OFFSET, offset);
            page.putLong(entry + ENTRY_REGION_LENGTH_OFFSET, lengths[i]);
            page.putLong(entry + ENTRY_EPOCH_OFFSET, epochs[i]);
            offset += lengths[i];
        }
        return page.clear();
    }

    /**
     * Opens and checks a segmented file of the given kind, mapping its container page; regions
     * are mapped by {@link #regions(int)}.
     *
     * @throws InvalidFilterFileException if it is damaged, not a filter, of version 1 or of the
     *     other kind ({@link Problem#INCOMPATIBLE}), or shorter than its published regions
     */
    public static SegmentedFile open(Path path, boolean readOnly, int kind) throws IOException {
        return open(path, CheckedFile.openChannel(path, readOnly), readOnly, kind);
    }

    /**
     * Checks and maps a segmented file already open on {@code channel}, as
     * {@link #open(Path, boolean, int)} does: for a caller that read the file's kind through the
     * same channel. The file takes the channel over; on failure it is closed here.
     *
     * @param channel open for reading, and for writing unless {@code readOnly}
     */
    public static SegmentedFile open(Path path, FileChannel channel, boolean readOnly, int kind) throws IOException {
        try {
            ContainerHeader header = ContainerHeader.decode(path, Segment.readHeaderBytes(channel, 0));
            if (header.kind() != kind) {
                throw new InvalidFilterFileException(path, Problem.INCOMPATIBLE, "is a "
                        + (header.isGrowing() ? "growing" : "windowed") + " filter, not a "
                        + (kind == KIND_GROWING ? "growing" : "windowed") + " one");
            }
            if (channel.size() < FIRST_REGION) {
                throw new InvalidFilterFileException(path, Problem.TOO_SHORT, "is " + channel.size()
                        + " bytes, shorter than its container page");
            }
            SegmentedFile file = new SegmentedFile(path, channel, Segment.map(path, channel, 0, FIRST_REGION, readOnly),
                    header, readOnly);
            try {
                file.regions(file.publishedRegions());
                if (header.isGrowing()) {
                    file.requireNothingWrittenPastTheNext();
                }
            } catch (IOException | RuntimeException e) {
                file.close();
                throw e;
            }
            return file;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The file. */
    public Path path() {
        return path;
    }

    /** The container header, checked at open. */
    public ContainerHeader header() {
        return header;
    }

    /** The shared words of the mapped container page. */
    public ContainerState state() {
        return state;
    }

    /** The length of the open file now: the file this handle maps, whatever the path names meanwhile. */
    public long length() throws IOException {
        return channel.size();
    }

    /** Whether the file is mapped read-only. */
    public boolean readOnly() {
        return readOnly;
    }

    /** The regions a reader may use now: the published segment count, or every slot of a ring. */
    public int publishedRegions() throws InvalidFilterFileException {
        return ContainerImage.publishedRegions(path, header, state.getCountVolatile());
    }

    /**
     * The first {@code count} regions, mapping those this handle has not mapped yet (after each
     * entry's region is checked: where it starts, that the file holds it, its own header).
     */
    public Segment[] regions(int count) throws IOException {
        Segment[] mapped = regions;
        if (mapped.length >= count) {
            return mapped;
        }
        synchronized (this) {
            ensureOpen();
            mapped = regions;
            Segment[] more = Arrays.copyOf(mapped, Math.max(count, mapped.length));
            for (int i = mapped.length; i < count; i++) {
                long offset = state.getRegionOffsetVolatile(i);
                long length = state.getRegionLengthVolatile(i);
                long expected = i == 0 ? FIRST_REGION : more[i - 1].header().fileLength() + state.getRegionOffsetVolatile(i - 1);
                ContainerImage.checkEntry(path, i, offset, length, expected, channel.size());
                FilterHeader own = Segment.readHeader(path, channel, offset, length);
                if (!own.spec().equals(checkedShape)) { // a ring's slots share one shape: checked once
                    header.checkRegion(path, i, own.spec(), SizingBefore::sized);
                    checkedShape = header.isGrowing() ? null : own.spec();
                }
                more[i] = Segment.open(path, channel, offset, own, readOnly);
            }
            regions = more;
            return more;
        }
    }

    /**
     * Growing: that no table entry past entry {@code count} is written. A growth writes entry c only
     * while the count is c, so one past it means the count word was lowered, and the keys of the
     * segments it no longer publishes are lost to every query: refused here, at the cost of reading
     * the table. The count is read again before refusing: a growth published meanwhile is no damage.
     *
     * @throws InvalidFilterFileException ({@link Problem#BAD_FIELD}) naming the count and the entry
     */
    private void requireNothingWrittenPastTheNext() throws InvalidFilterFileException {
        for (int failures = 1; ; failures++) {
            long count = state.getCountVolatile();
            int written = -1;
            for (int i = (int) count + 1; i < header.tableCapacity() && written < 0; i++) {
                written = state.getRegionLengthVolatile(i) != 0 ? i : -1;
            }
            if (written < 0) {
                return;
            }
            if (state.getCountVolatile() == count) {
                throw new InvalidFilterFileException(path, Problem.BAD_FIELD, "segment count is " + count
                        + " but segment " + written + " is written, which a growth does only once the count is "
                        + written + ": the count word was lowered, and keys of the segments after " + (count - 1)
                        + " are missing from every query; restore the file from a pack");
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /**
     * Checks the table beyond what opening checked, for verify (docs/FORMAT.md, "What verify
     * detects"). Growing: a segment prepared but not published is empty, as a growth writes it
     * (else the count word was lowered over keys added to it). Windowed: every slot holds the epoch
     * the current one gives it, unless a rotation is under way or was interrupted (the step lock is
     * held), when each slot holds that epoch, a later one of its own, or {@link ContainerDescriptor#CLEARING}.
     * Each finding is confirmed by reading the words it rests on again: a growth or rotation by
     * another process meanwhile is no damage, and the check is redone.
     *
     * @throws InvalidFilterFileException ({@code BAD_FIELD}) naming the region and what it holds
     */
    public void verifyTable() throws IOException {
        for (int failures = 1; ; failures++) {
            long lock = state.getLockVolatile();
            long count = state.getCountVolatile();
            String damage = header.isGrowing() ? unpublishedDamage(count) : slotDamage(count, lock != 0);
            if (damage == null) {
                return;
            }
            if (state.getCountVolatile() == count && state.getLockVolatile() == lock
                    && damage.equals(header.isGrowing() ? unpublishedDamage(count) : slotDamage(count, lock != 0))) {
                throw new InvalidFilterFileException(path, Problem.BAD_FIELD, damage + "; restore the file from a pack");
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /** What is wrong with segment {@code count}, prepared but not published, or null if it is absent or empty. */
    private String unpublishedDamage(long count) throws IOException {
        int next = (int) count;
        if (!isPrepared(next)) {
            return null;
        }
        long offset = state.getRegionOffsetVolatile(next);
        long length = state.getRegionLengthVolatile(next);
        ContainerImage.checkEntry(path, next, offset, length, state.getRegionOffsetVolatile(next - 1)
                + state.getRegionLengthVolatile(next - 1), channel.size());
        header.checkRegion(path, next, Segment.readHeader(path, channel, offset, length).spec(), SizingBefore::sized);
        String unpublished = "segment " + next + " is prepared but not published (the segment count is " + count
                + "), yet ";
        long insertions = ByteBuffer.wrap(CheckedFile.readAt(channel, offset + FilterFileDescriptor.STATE_OFFSET, 8))
                .order(ByteOrder.LITTLE_ENDIAN).getLong();
        if (insertions != 0) {
            return unpublished + "its count of keys is " + insertions + ": the count word was lowered over it, and its"
                    + " keys are missing from every query";
        }
        int chunk = 1 << 20;
        for (long at = FilterFileDescriptor.CELLS_START; at < length; at += chunk) {
            ByteBuffer cells = ByteBuffer.wrap(CheckedFile.readAt(channel, offset + at, (int) Math.min(chunk, length - at)))
                    .order(ByteOrder.LITTLE_ENDIAN);
            while (cells.remaining() >= Long.BYTES) {
                if (cells.getLong() != 0) {
                    return unpublished + "it has cells set: the count word was lowered over it, and its keys are"
                            + " missing from every query";
                }
            }
        }
        return null;
    }

    /**
     * What is wrong with the ring's slot epochs at current epoch {@code current}, or null. Slot j
     * holds x_j, the one of current - L .. current that is j modulo L + 1; while {@code rotating},
     * it may also hold {@link ContainerDescriptor#CLEARING} or a later epoch that is j modulo L + 1.
     */
    private String slotDamage(long current, boolean rotating) {
        int ring = header.tableCapacity();
        for (int j = 0; j < ring; j++) {
            long epoch = state.getSlotEpochVolatile(j);
            long expected = current - Math.floorMod(current - j, ring);
            boolean later = epoch > expected && Math.floorMod(epoch - j, ring) == 0;
            if (epoch != expected && !(rotating && (epoch == CLEARING || later))) {
                return "slot " + j + " holds " + (epoch == CLEARING ? "CLEARING (a slot being cleared)" : "epoch " + epoch)
                        + " where the current epoch " + current + " gives it epoch " + expected
                        + (rotating ? "" : " and no rotation is under way (the step lock is free)")
                        + ": its keys are missing from every query";
            }
        }
        return null;
    }

    /** The regions mapped by this handle so far. */
    public Segment[] mappedRegions() {
        return regions;
    }

    /**
     * Tries to take the step lock: free, or held by a process that no longer runs (then the
     * caller must finish or redo that step).
     */
    public Lock tryLock() {
        for (int failures = 1; ; failures++) {
            long owner = state.getLockVolatile();
            if (owner == 0) {
                if (state.compareAndSetLock(0, THIS_PROCESS)) {
                    return Lock.ACQUIRED;
                }
            } else if (owner != THIS_PROCESS && !ContainerState.ownerAlive(owner)) {
                if (state.compareAndSetLock(owner, THIS_PROCESS)) {
                    return Lock.RECOVERED;
                }
            } else {
                return Lock.BUSY;
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /** The step lock's owner stamp, or 0 when it is free. */
    public long lockOwner() {
        return state.getLockVolatile();
    }

    /** Whether the step lock is held by a process that no longer runs: a step to finish. */
    public boolean lockHeldByCrashedOwner() {
        long owner = state.getLockVolatile();
        return owner != 0 && owner != THIS_PROCESS && !ContainerState.ownerAlive(owner);
    }

    /** Frees the step lock this process holds. */
    public void unlock() {
        if (!state.compareAndSetLock(THIS_PROCESS, 0)) {
            throw new IllegalStateException(path + ": the step lock is not held by this process");
        }
    }

    /** The bytes of region {@code index} if it is prepared ({@link #isPrepared}), else 0. */
    public long preparedLength(int index) {
        return isPrepared(index) ? state.getRegionLengthVolatile(index) : 0;
    }

    /** Whether region {@code index} is written, forced and recorded in the table (published or not). */
    public boolean isPrepared(int index) {
        return index < header.tableCapacity() && state.getRegionLengthVolatile(index) != 0;
    }

    /**
     * Writes region {@code index} after region {@code index - 1} and records it in the table,
     * forced to the device, without publishing it: a growth's work before its count is published.
     * Redoing it after a crash writes the same bytes at the same place. Caller holds the lock.
     *
     * @throws IOException naming the limit if the file would grow past {@code maxBytes}, or the
     *     disk's error if it cannot hold the region; the file is then as it was
     */
    public void appendRegion(int index) throws IOException {
        long offset = appendOffset(index);
        BloomSpec spec = appendable(index, offset);
        long length = ContainerHeader.regionLength(spec);
        MappingFlags.require(path, length); // before the file grows by a region this JVM could not map
        long end = offset + length;
        try {
            FilterFiles.requireSpace(path, end - Math.max(offset, Math.min(end, channel.size())), false);
            channel.position(offset);
            FilterFiles.writeEmptyFilter(channel, FilterHeader.unbound(spec, System.currentTimeMillis(), false));
            CrashPoint.reach(CrashPoint.GROWTH);
            channel.force(true);
        } catch (IOException e) {
            truncateQuietly(offset);
            throw new IOException(TemporaryFile.userFacing(path) + ": cannot grow to " + end + " bytes for segment " + index + " ("
                    + e.getMessage() + "); the filter keeps answering queries; free disk space, then grow it again", e);
        }
        state.setRegionVolatile(index, offset, length);
        state.setSlotEpochVolatile(index, 0);
        page.sync();
    }

    /**
     * Whether region {@code index} can be appended as far as its size decides: the table, the
     * largest region, the max size. A disk too small is found only when the region is written.
     */
    public boolean canAppend(int index) throws IOException {
        try {
            appendable(index, appendOffset(index));
            return true;
        } catch (AppendRefused refused) {
            return false;
        }
    }

    /** Where region {@code index} starts: where region {@code index - 1} ends. */
    private long appendOffset(int index) throws IOException {
        Segment previous = regions(index)[index - 1];
        return state.getRegionOffsetVolatile(index - 1) + previous.header().fileLength();
    }

    /** The shape of region {@code index}, starting at {@code offset}, unless the table, its size or the max size refuse it. */
    private BloomSpec appendable(int index, long offset) throws AppendRefused {
        if (index >= header.tableCapacity()) {
            throw new AppendRefused(TemporaryFile.userFacing(path) + ": cannot grow past " + header.tableCapacity() + " segments (its table is full):"
                    + " at growth factor " + header.growthFactor() + " it holds at most " + header.keysBeforeTableFull()
                    + " keys; the filter keeps answering queries; move to a new file with a growth factor of 2");
        }
        BloomSpec spec;
        try {
            spec = header.regionSpec(index);
        } catch (IllegalArgumentException tooBig) {
            throw new AppendRefused(TemporaryFile.userFacing(path) + ": cannot grow: segment " + index + " would be too large (" + tooBig.getMessage() + ")");
        }
        long end = offset + ContainerHeader.regionLength(spec);
        if (header.maxBytes() > 0 && end > header.maxBytes()) {
            throw new AppendRefused(TemporaryFile.userFacing(path) + ": cannot grow past its max size of " + header.maxBytes() + " bytes: segment "
                    + index + " (" + spec.expectedKeys() + " keys) would make the file " + end
                    + " bytes; the filter keeps answering queries; move to a new file with a larger max size");
        }
        return spec;
    }

    /** A growth its size refuses: the table is full, the region would be too large, or the file would pass its max size. */
    private static final class AppendRefused extends IOException {
        private static final long serialVersionUID = 1L;

        AppendRefused(String message) {
            super(message);
        }
    }

    /** Gives back what a failed growth allocated; nobody maps past the published regions. */
    private void truncateQuietly(long size) {
        try {
            if (channel.size() > size) {
                channel.truncate(size);
            }
        } catch (IOException ignored) {
            // the growth's own error is the one to report; the next growth overwrites this space
        }
    }

    /** Forces every change made so far, through any handle, to the device. */
    public void sync() throws IOException {
        if (!readOnly) {
            page.sync();
        }
    }

    /** Unmaps every region and the container page and closes the descriptor. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Segment region : regions) {
            region.close();
        }
        page.close();
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(path + " is closed");
        }
    }
}

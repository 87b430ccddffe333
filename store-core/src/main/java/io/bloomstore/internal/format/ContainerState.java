package io.bloomstore.internal.format;

import static io.bloomstore.internal.format.ContainerDescriptor.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * The shared words of a mapped segmented file (see {@link ContainerDescriptor}): the published
 * count or epoch, the step lock, and the region table, read and written through a Chronicle Bytes
 * store over the file's first page. Every access is volatile (sequentially consistent), as every
 * process mapping the file reads and writes them.
 *
 * <p>The lock's owner stamp is {@code pid | (process start, seconds since the epoch, low 32 bits) << 32}:
 * a stamp whose process is gone, or whose PID now belongs to a process started at another time,
 * is a crashed owner, and the lock may be taken over from it by compare-and-set.
 */
public final class ContainerState {
    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;

    private final BytesStore<?, ?> page;
    /**
     * The address the store lends for byte 0, for the two reads every query of a ring makes (the
     * current epoch and each slot's): straight loads, as {@code CellArray}'s per-cell reads are,
     * without the store's per-access checks; the range was checked once, here.
     */
    private final long address;

    /**
     * @param page the mapped file from byte 0, its first page at least; it must outlive this object
     */
    public ContainerState(BytesStore<?, ?> page) {
        Objects.checkFromIndexSize(0, TABLE_OFFSET + (long) TABLE_ENTRIES * ENTRY_LENGTH, page.capacity());
        this.page = page;
        this.address = page.addressForRead(0);
    }

    /** Growing: the segments published. Windowed: the current epoch. */
    public long getCountVolatile() {
        return MEMORY.readVolatileLong(address + COUNT_OFFSET);
    }

    /** Publishes a new count or epoch; everything it covers must be written (and forced) first. */
    public void setCountVolatile(long value) {
        page.writeVolatileLong(COUNT_OFFSET, value);
    }

    /** Publishes {@code value} if the count is still {@code expected}: one of several publishers wins. */
    public boolean compareAndSetCount(long expected, long value) {
        return page.compareAndSwapLong(COUNT_OFFSET, expected, value);
    }

    /** The step lock: 0, or its owner's stamp. */
    public long getLockVolatile() {
        return page.readVolatileLong(LOCK_OFFSET);
    }

    /** Compare-and-set of the lock word: 0 to a stamp takes it, a stamp to 0 frees it, a dead stamp to a live one takes it over. */
    public boolean compareAndSetLock(long expected, long value) {
        return page.compareAndSwapLong(LOCK_OFFSET, expected, value);
    }

    /** Windowed: the file's clock, as its owner's offset from the system clock in ms. */
    public long getClockOffsetVolatile() {
        return MEMORY.readVolatileLong(address + CLOCK_OFFSET_OFFSET);
    }

    /** Records the owner's clock offset; written by the owner only. */
    public void setClockOffsetVolatile(long millis) {
        page.writeVolatileLong(CLOCK_OFFSET_OFFSET, millis);
    }

    /** Windowed: the stamp of the process whose clock the file follows, 0 while unclaimed. */
    public long getClockOwnerVolatile() {
        return MEMORY.readVolatileLong(address + CLOCK_OWNER_OFFSET);
    }

    /** Claims the file's clock: 0 to a stamp, by one of the processes that find it unclaimed. */
    public boolean compareAndSetClockOwner(long expected, long value) {
        return page.compareAndSwapLong(CLOCK_OWNER_OFFSET, expected, value);
    }

    /** Where region {@code entry} starts in the file. */
    public long getRegionOffsetVolatile(int entry) {
        return page.readVolatileLong(entryOffset(entry) + ENTRY_REGION_OFFSET_OFFSET);
    }

    /** Region {@code entry}'s bytes; 0 while it is not written. */
    public long getRegionLengthVolatile(int entry) {
        return page.readVolatileLong(entryOffset(entry) + ENTRY_REGION_LENGTH_OFFSET);
    }

    /** Records where region {@code entry} lies; done before the count that publishes it. */
    public void setRegionVolatile(int entry, long offset, long length) {
        page.writeVolatileLong(entryOffset(entry) + ENTRY_REGION_OFFSET_OFFSET, offset);
        page.writeVolatileLong(entryOffset(entry) + ENTRY_REGION_LENGTH_OFFSET, length);
    }

    /** Windowed: the epoch slot {@code entry} holds, or {@link ContainerDescriptor#CLEARING}. */
    public long getSlotEpochVolatile(int entry) {
        return MEMORY.readVolatileLong(address + entryOffset(entry) + ENTRY_EPOCH_OFFSET);
    }

    /** Records the epoch slot {@code entry} holds (or {@link ContainerDescriptor#CLEARING}). */
    public void setSlotEpochVolatile(int entry, long epoch) {
        page.writeVolatileLong(entryOffset(entry) + ENTRY_EPOCH_OFFSET, epoch);
    }

    /** This process's lock stamp. */
    public static long stampOfThisProcess() {
        return stamp(ProcessHandle.current());
    }

    /** What the process of a lock stamp is doing, as far as this process can tell. */
    public enum Owner {
        /** The lock is free (stamp 0). */
        NONE,
        /** It runs (or waits, or its state cannot be read): its step will end. */
        RUNNING,
        /** It is stopped (SIGSTOP, Ctrl-Z, a debugger): nothing happens until it is resumed. */
        STOPPED,
        /** It no longer runs (or its PID is another process's now): its step is left to finish. */
        GONE
    }

    /** Whether the process that wrote {@code stamp} still runs (the same process, not a later one with its PID). */
    public static boolean ownerAlive(long stamp) {
        Owner owner = ownerState(stamp);
        return owner == Owner.RUNNING || owner == Owner.STOPPED;
    }

    /**
     * What the process that wrote {@code stamp} is doing. A zombie (ended, not yet reaped by its
     * parent) is gone: it can write nothing more. A process whose start time cannot be read
     * (another user's, on some systems) counts as the owner: taking a live owner's lock would let
     * two processes clear or grow at once.
     */
    public static Owner ownerState(long stamp) {
        if (stamp == 0) {
            return Owner.NONE;
        }
        boolean same = ProcessHandle.of(pidOf(stamp))
                .map(process -> process.info().startInstant().isEmpty() || stamp(process) == stamp)
                .orElse(false);
        if (!same) {
            return Owner.GONE;
        }
        return switch (linuxState(pidOf(stamp))) {
            case 'T', 't' -> Owner.STOPPED;
            case 'Z', 'X' -> Owner.GONE;
            default -> Owner.RUNNING;
        };
    }

    /** The PID of a lock stamp. */
    public static long pidOf(long stamp) {
        return stamp & 0xFFFF_FFFFL;
    }

    /** The lock stamp of {@code process}. */
    public static long stamp(ProcessHandle process) {
        long started = process.info().startInstant().map(instant -> instant.getEpochSecond()).orElse(0L);
        return (process.pid() & 0xFFFF_FFFFL) | started << 32;
    }

    /**
     * The state letter of /proc/PID/stat (the field after the command name, which is in
     * parentheses and may hold any character), or '?' where there is no such file.
     */
    private static char linuxState(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1);
            int end = stat.lastIndexOf(')');
            return end >= 0 && end + 2 < stat.length() ? stat.charAt(end + 2) : '?';
        } catch (IOException | RuntimeException e) {
            return '?';
        }
    }

    private static long entryOffset(int entry) {
        return TABLE_OFFSET + (long) Objects.checkIndex(entry, TABLE_ENTRIES) * ENTRY_LENGTH;
    }
}

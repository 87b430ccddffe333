package io.bloomstore;

import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.Seal;
import io.bloomstore.internal.format.StepLockHeldException;
import io.bloomstore.internal.format.StepLockWait;
import io.bloomstore.internal.map.FileKinds;
import io.bloomstore.internal.segment.ContainerImage;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;

/**
 * One pass over the bytes of a filter file (of any kind) that other processes may be adding to,
 * for the operations that copy a file whole: {@link Pack} and {@link Checkpoint}.
 *
 * <p>The file is opened once, and its kind, headers, length and every byte are read through that
 * one descriptor: a file renamed over the path meanwhile is read whole or refused, never checked as
 * one file and copied from another. A file is checked as opening it and {@code verify} check it
 * (a growing or windowed file's regions too, by the very code they use), so a copy is never made of
 * a file that every other command refuses. The <em>first page</em> (a fixed filter's header page,
 * or a segmented file's container page) is read first and fixes what the copy holds: its length,
 * the segments a growing file publishes, the epochs of a windowed file's slots, a fixed filter's
 * seal. Cells read after it hold at least every add that returned before it was read.
 *
 * <p>A windowed file's slot that a rotation reuses during the pass (with epochs of milliseconds,
 * a pass outlasts several) holds, under the epoch the first page gives it, only keys of that epoch,
 * which left the window before the pass ended: each read of a slot is checked against the slot's
 * epoch read after it, and once that epoch changed, the slot's state and cells read as zero, as
 * the rotation leaves them. So the copy is consistent, slot by slot, whatever the epoch length.
 *
 * <p>A growing file's segment written ahead but not yet published when the first page was read
 * may be published during the pass and take keys: it reads as zero past its immutable header, as
 * it was prepared, since the copy's first page does not publish it. Else the copy would hold keys
 * in a segment its count leaves out, which verify rightly calls a lowered count (those keys came
 * after the first page, so the copy need not hold them).
 *
 * <p>A sealed filter whose seal was withdrawn or renewed during the pass (a writer may have
 * changed cells the sealed checksum covers) is reported by {@link #sealWithdrawn} once every byte
 * has been read.
 */
final class LiveFileRead implements Closeable {

    private final Path filter;
    private final FileChannel channel;
    private final byte[] firstPage;
    private final long length;
    /** A segmented file's container page as first read; null for a fixed filter. */
    private final ContainerImage container;
    /** A fixed filter's seal as first read; null for a segmented file. */
    private final Seal seal;
    /** The open, checked growing or windowed file, which owns {@link #channel}; null for a fixed filter. */
    private final SegmentedFilter segmented;
    /** A windowed file's slots whose epoch changed since the first page: they read as emptied. */
    private final boolean[] reused;
    /** Where a growing file's segment written ahead starts reading as zero (its state), and ends; -1 if none. */
    private final long preparedZeroFrom;
    private final long preparedEnd;
    /** The open, checked Bloomier map, which owns {@link #channel}; null for a filter. */
    private final BloomierMap map;

    private LiveFileRead(Path filter, FileChannel channel) throws IOException {
        this.filter = filter;
        this.channel = channel;
        FilterKind kind = FileKinds.of(channel);
        map = kind == FilterKind.MAP ? BloomierMap.open(filter, channel) : null;
        if (map != null) {
            // a map never changes once published: its header and table checksum vouch for every byte read after
            try {
                map.verify();
                firstPage = CheckedFile.readAt(channel, 0, FilterFileDescriptor.CELLS_START);
            } catch (IOException | RuntimeException e) {
                map.close();
                throw e;
            }
            length = map.fileBytes();
            seal = null;
            container = null;
            segmented = null;
            reused = null;
            preparedZeroFrom = -1;
            preparedEnd = -1;
        } else if (kind == FilterKind.FIXED) {
            length = CheckedFile.check(filter, channel).header().fileLength();
            firstPage = CheckedFile.readAt(channel, 0, FilterFileDescriptor.CELLS_START);
            seal = Seal.in(firstPage);
            container = null;
            segmented = null;
            reused = null;
            preparedZeroFrom = -1;
            preparedEnd = -1;
        } else {
            // opened read-only through the one channel, which it takes over: opening's checks, then verify's
            segmented = kind == FilterKind.GROWING ? GrowingBloomFilter.open(filter, channel, OpenMode.READ_ONLY)
                    : WindowedBloomFilter.open(filter, channel, OpenMode.READ_ONLY, Clock.systemUTC());
            firstPage = new byte[ContainerDescriptor.FIRST_REGION];
            try {
                container = quietContainer();
                segmented.verify(); // after the page: every region it publishes is mapped, and checked
            } catch (IOException | RuntimeException e) {
                segmented.close();
                throw e;
            }
            length = container.fileLength();
            seal = null;
            reused = new boolean[kind == FilterKind.WINDOWED ? container.regions() : 0];
            int next = container.regions(); // a chain's entry past its published segments: one written ahead, if any
            ByteBuffer table = ByteBuffer.wrap(firstPage).order(ByteOrder.LITTLE_ENDIAN);
            int entry = ContainerDescriptor.TABLE_OFFSET + next * ContainerDescriptor.ENTRY_LENGTH;
            long offset = kind == FilterKind.GROWING && next < ContainerDescriptor.TABLE_ENTRIES
                    ? table.getLong(entry + ContainerDescriptor.ENTRY_REGION_OFFSET_OFFSET) : 0;
            preparedZeroFrom = offset > 0 ? offset + FilterFileDescriptor.STATE_OFFSET : -1;
            preparedEnd = offset > 0
                    ? Math.min(length, offset + table.getLong(entry + ContainerDescriptor.ENTRY_REGION_LENGTH_OFFSET)) : -1;
        }
    }

    /**
     * Opens {@code filter} and reads its first page.
     *
     * @throws InvalidFilterFileException if the file is damaged or not a filter
     * @throws IOException if it cannot be read, or a live process holds a growing or windowed file's step lock too
     *     long ({@link StepLockHeldException}: stopped, or 60 s)
     */
    static LiveFileRead open(Path filter) throws IOException {
        // the one channel is opened after a check that the path is a regular file (opening a FIFO would block)
        FileChannel channel = CheckedFile.openChannel(filter, true);
        try {
            return new LiveFileRead(filter, channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The file's first page as read first: a fixed filter's header page, or a segmented file's container page. */
    byte[] firstPage() {
        return firstPage.clone();
    }

    /** The file's length as the first page fixes it. */
    long length() {
        return length;
    }

    /**
     * Reads into {@code buffer}, up to its limit (or, in a windowed file, the end of the slot
     * {@code position} lies in), from {@code position}. A slot reused since the first page reads as
     * zero past its immutable header (see the class comment).
     *
     * @return the bytes read, at least 1
     * @throws EOFException if the file ends at {@code position}: it shrank during the pass
     */
    int read(ByteBuffer buffer, long position) throws IOException {
        int slot = slotAt(position);
        if (slot < 0) {
            int start = buffer.position();
            int n = readSome(buffer, position);
            for (long at = Math.max(position, preparedZeroFrom); at < Math.min(position + n, preparedEnd); at++) {
                buffer.put(start + (int) (at - position), (byte) 0);
            }
            return n;
        }
        int start = buffer.position();
        int limit = buffer.limit();
        long slotEnd = container.offset(slot) + container.length(slot);
        buffer.limit((int) Math.min(limit, start + slotEnd - position));
        int n;
        try {
            n = readSome(buffer, position);
        } finally {
            buffer.limit(limit);
        }
        // the epoch read after the bytes: unchanged, no rotation had begun to clear them
        if (!reused[slot] && segmented.file.state().getSlotEpochVolatile(slot) != container.epoch(slot)) {
            reused[slot] = true;
        }
        if (reused[slot]) {
            long keep = container.offset(slot) + FilterFileDescriptor.STATE_OFFSET; // the region's own header
            for (int i = (int) Math.max(0, keep - position); i < n; i++) {
                buffer.put(start + i, (byte) 0);
            }
        }
        return n;
    }

    /**
     * Whether the windowed slot that {@code position} lies in was reused for a newer epoch since the
     * first page, as the reads so far found: then its cells read as zero, and the file is newer there
     * than the first page says.
     */
    boolean reusedAt(long position) {
        int slot = slotAt(position);
        return slot >= 0 && reused[slot];
    }

    /** Whether a sealed filter was opened for writing, or sealed anew, during the pass; call once every byte has been read. */
    boolean sealWithdrawn() throws IOException {
        return seal != null && seal.sealed() && !seal.heldUntil(Seal.in(CheckedFile.readAt(channel, 0, Seal.AREA_END)));
    }

    private int readSome(ByteBuffer buffer, long position) throws IOException {
        int n = channel.read(buffer, position);
        if (n < 0) {
            throw new EOFException(filter + " shrank while it was being read");
        }
        return n;
    }

    /** The windowed slot {@code position} lies in, or -1 (the container page, bytes after the last slot, another kind). */
    private int slotAt(long position) {
        for (int slot = 0; reused != null && slot < reused.length; slot++) {
            if (position >= container.offset(slot) && position < container.offset(slot) + container.length(slot)) {
                return slot;
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        if (map != null) {
            map.close(); // unmaps it and closes the channel
        } else if (segmented != null) {
            segmented.close(); // unmaps it and closes the channel
        } else {
            channel.close();
        }
    }

    /**
     * Reads and checks the container page once no live process holds the step lock: a page read
     * mid-growth or mid-rotation would carry the live owner's stamp, and the copy would wait for
     * that process to end before it could grow or rotate. A stamp of a crashed owner is copied as
     * it is: the copy finishes that step when opened, as the file would.
     */
    private ContainerImage quietContainer() throws IOException {
        StepLockWait wait = new StepLockWait(filter, "growing or rotating it");
        while (true) {
            ContainerImage image = readContainer(firstPage);
            if (image.lock() == 0 || !ContainerState.ownerAlive(image.lock())) {
                return image;
            }
            wait.pause(image.lock());
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(filter + ": interrupted while waiting for a growth or rotation to end");
            }
        }
    }

    /** Reads the container page into {@code page}, then the file's length (so every region the page publishes lies within it), and checks them. */
    private ContainerImage readContainer(byte[] page) throws IOException {
        byte[] read = CheckedFile.readAt(channel, 0, page.length);
        System.arraycopy(read, 0, page, 0, read.length);
        return ContainerImage.decode(filter, read, channel.size());
    }
}

package io.bloomstore;

import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.Seal;
import io.bloomstore.internal.format.StepLockHeldException;
import io.bloomstore.internal.format.StepLockWait;
import io.bloomstore.internal.segment.ContainerImage;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * One pass over the bytes of a filter file (of any kind) that other processes may be adding to,
 * for the operations that copy a file whole: {@link Pack} and {@link Checkpoint}.
 *
 * <p>The file is opened once, and its kind, headers, length and every byte are read through that
 * one descriptor: a file renamed over the path meanwhile is read whole or refused, never checked as
 * one file and copied from another. The <em>first page</em> (a fixed filter's header page, or a
 * segmented file's container page) is read first and fixes what the copy holds: its length, the
 * segments a growing file publishes, the epochs of a windowed file's slots, a fixed filter's seal.
 * Cells read after it hold at least every add that returned before it was read.
 *
 * <p>Two changes during the pass make the cells read disagree with that page, and
 * {@link #changeSinceFirstPage} reports them once every byte has been read: a windowed file that
 * rotated (its slots' cells may have been cleared under their old epochs), and a sealed filter
 * whose seal was withdrawn or renewed (a writer may have changed cells the sealed checksum covers).
 */
final class LiveFileRead implements Closeable {
    /** What {@link #changeSinceFirstPage} found. */
    enum Change {
        /** The bytes read agree with the first page. */
        NONE,
        /** A windowed file rotated to a new epoch during the pass. */
        ROTATED,
        /** A sealed fixed filter was opened for writing, or sealed anew, during the pass. */
        SEAL_WITHDRAWN
    }

    private final Path filter;
    private final FileChannel channel;
    private final byte[] firstPage;
    private final long length;
    /** A segmented file's container page as first read; null for a fixed filter. */
    private final ContainerImage container;
    /** A fixed filter's seal as first read; null for a segmented file. */
    private final Seal seal;

    private LiveFileRead(Path filter, FileChannel channel) throws IOException {
        this.filter = filter;
        this.channel = channel;
        if (FilterKind.of(channel) == FilterKind.FIXED) {
            length = CheckedFile.check(filter, channel).header().fileLength();
            firstPage = CheckedFile.readAt(channel, 0, FilterFileDescriptor.CELLS_START);
            seal = Seal.in(firstPage);
            container = null;
        } else {
            firstPage = new byte[ContainerDescriptor.FIRST_REGION];
            container = quietContainer();
            length = container.fileLength();
            seal = null;
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
     * Reads into {@code buffer}, up to its limit, from {@code position}.
     *
     * @return the bytes read, at least 1
     * @throws EOFException if the file ends at {@code position}: it shrank during the pass
     */
    int read(ByteBuffer buffer, long position) throws IOException {
        int n = channel.read(buffer, position);
        if (n < 0) {
            throw new EOFException(filter + " shrank while it was being read");
        }
        return n;
    }

    /** Whether the bytes read since the first page still agree with it; call once every byte has been read. */
    Change changeSinceFirstPage() throws IOException {
        if (container != null && container.rotatedBefore(readContainer(new byte[firstPage.length]))) {
            return Change.ROTATED;
        }
        if (seal != null && seal.sealed() && !seal.heldUntil(Seal.in(CheckedFile.readAt(channel, 0, Seal.AREA_END)))) {
            return Change.SEAL_WITHDRAWN;
        }
        return Change.NONE;
    }

    @Override
    public void close() throws IOException {
        channel.close();
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

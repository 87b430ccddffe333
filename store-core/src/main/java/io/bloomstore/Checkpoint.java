package io.bloomstore;

import static io.bloomstore.internal.format.FilterFileDescriptor.CELLS_START;
import static io.bloomstore.internal.format.FilterFileDescriptor.HEADER_LENGTH;
import static io.bloomstore.internal.format.FilterFileDescriptor.OPEN_WRITERS_OFFSET;
import static io.bloomstore.internal.format.FilterFileDescriptor.SEAL_STATE_OFFSET;
import static io.bloomstore.internal.format.FilterFileDescriptor.UNSEALED;

import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.Seal;
import io.bloomstore.internal.map.FileKinds;
import io.bloomstore.internal.segment.CrashPoint;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Keeps a durable copy of a live filter up to date by writing only the pages that changed.
 *
 * <p><b>Why.</b> Random adds dirty pages all over a mapped file, and the kernel writes a dirty page
 * back whenever its flusher or reclaim takes it, then write-protects it, so the next add to it
 * dirties it again: on a host with proactive reclaim a 1 GiB filter had 110 times its size written
 * for under a million adds (docs/RELIABILITY.md, "Large filters and the kernel's writeback"). A
 * live filter kept in memory that is never written back ({@code /dev/shm}, tmpfs) costs no
 * writeback at all, but is lost at a reboot. A checkpoint bridges the two: at the points where a
 * {@code sync()} would go, it compares the live file with its copy on disk page by page, in file
 * order, and writes the differing pages, each once, then forces the copy. What reaches the device
 * per checkpoint is the part of the filter that changed since the last one, never a multiple of it.
 *
 * <p><b>What a copy holds.</b> When {@link #write} returns, the copy holds every add that returned
 * (in any process) before it began, but those of a windowed file's epochs that left its window
 * during the checkpoint, and is forced to the device: it survives a power cut. It is an
 * ordinary filter file of the live file's kind and header, so every command opens it; its open
 * writers count is 0 (no process has the copy open, whatever the live file's count). Restoring is a
 * checkpoint the other way: {@code write(copy, live)} with the live path absent creates it.
 *
 * <p><b>A crash during a checkpoint</b> leaves the copy with some pages of the new state and the rest
 * of the old one. The file's first page (header, state, a segmented file's region table) is written
 * last, after the changed pages are forced, so the copy opens clean, and it still holds every key
 * that both the old copy and the live filter held: a key's cells are non-zero in both states, so in
 * any mix of their pages (a windowed filter's keys that expired between the two checkpoints may be
 * partly cleared). A sealed copy is unsealed before any of its cells change, so a crash never leaves
 * a seal over cells it does not match. The next checkpoint completes the copy.
 *
 * <p><b>Never backwards.</b> A checkpoint refuses, before it writes anything, a copy that is newer
 * than the live file ({@link BackwardsException}): the arguments swapped, or an old copy restored
 * over the live file it was taken from, would lose every add made since. The order is read from the
 * files themselves, at no cost to adds ({@code CopyOrder}): more segments, a later epoch, more
 * lowerings of cells (removes), or, where those agree, a cell set or counted higher in the copy.
 * Restoring into an absent or empty (0-byte) path is always allowed; {@code force} writes an older
 * file over a newer one on purpose.
 *
 * <p>The live file is checked as opening it and {@code verify} check it before anything is copied:
 * a damaged file is refused, never copied.
 *
 * <p>One checkpoint writes a copy at a time (a lock on the copy). The copy must not be opened for
 * writing by anything else: a checkpoint refuses a copy whose open writers count is not 0.
 */
public final class Checkpoint {
    /** The unit of comparison and of writing: the page, as the kernel dirties and writes back. */
    private static final int PAGE = 4096;
    private static final int CHUNK = 1 << 20;
    /** How often a checkpoint reads a live file again whose seal changed during the pass. */
    private static final int ATTEMPTS = 3;

    private Checkpoint() {
    }

    /**
     * What one checkpoint did.
     *
     * @param fileLength the length of the live file copied
     * @param bytesWritten the bytes written to the copy: its changed pages (the whole file if it was created)
     * @param pagesWritten the 4 KiB pages written, the first page included when it changed
     * @param created whether the copy did not exist and was created whole
     * @param passes the passes over the live file: more than 1 when a sealed one was opened for
     *     writing during a pass
     */
    public record Result(long fileLength, long bytesWritten, long pagesWritten, boolean created, int passes) {
    }

    /**
     * A checkpoint refused because its copy is newer than its live file: writing one over the other
     * would lose what was added to the copy since (the arguments swapped, most likely). Nothing was
     * written.
     */
    public static final class BackwardsException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BackwardsException(Path copy, Path live, String why) {
            super(copy + " is newer than " + live + " (" + why + "): a checkpoint never goes backwards, which would "
                    + "lose what was added to " + copy + " since; nothing was written");
        }

        /**
         * What the refusal says, without advice: the caller's interface adds how to override it.
         *
         * @return the files, which is newer and why, and that nothing was written
         */
        public String reason() {
            return super.getMessage();
        }

        @Override
        public String getMessage() {
            return reason() + "; to write the older file over it anyway, checkpoint with force";
        }
    }

    /** What a checkpoint may do that it otherwise refuses. */
    public enum Option {
        /**
         * Write {@code live} over a {@code copy} newer than it, on purpose: restoring a copy over the
         * live file it was taken from, losing what was added since (the CLI's {@code checkpoint --force}).
         * Without it such a copy is refused with {@link BackwardsException}.
         */
        OLDER_OVER_NEWER
    }

    /**
     * Brings {@code copy} up to date with {@code live} by writing the pages that differ, then forces
     * it; refuses a copy newer than {@code live} unless {@link Option#OLDER_OVER_NEWER} is given.
     *
     * @param live the filter file (of any kind) to copy; it may be open, and added to, elsewhere
     * @param copy its durable copy: an earlier checkpoint of the same file, updated in place; or absent
     *     (or empty, 0 bytes), and then created whole, atomically (it appears only when complete)
     * @param options what it may do besides
     * @return what was written
     * @throws BackwardsException if {@code copy} is newer than {@code live}; nothing was written
     * @throws IllegalArgumentException if {@code copy} exists and is not a copy of {@code live} (their
     *     headers differ), is the live file itself, or is open for writing
     * @throws IllegalStateException if a sealed {@code live} was opened for writing during each of 3 passes
     * @throws InvalidFilterFileException if {@code live} is damaged (as opening it or verify find) or not a filter
     * @throws IOException if a file cannot be read or written (the message names it and what to do), or
     *     another checkpoint is writing {@code copy}
     */
    public static Result write(Path live, Path copy, Option... options) throws IOException {
        return write(live, copy, bytes -> { }, options);
    }

    /**
     * {@link #write(Path, Path, Option...)}, reporting its progress.
     *
     * @param live the file to copy
     * @param copy the file to bring up to date with it
     * @param progress called with the bytes of the live file compared so far
     * @param options what it may do besides
     * @return what was written
     * @throws IOException as {@link #write(Path, Path, Option...)}
     */
    public static Result write(Path live, Path copy, LongConsumer progress, Option... options) throws IOException {
        Objects.requireNonNull(progress, "progress: use write(live, copy, options) for none");
        boolean force = List.of(options).contains(Option.OLDER_OVER_NEWER);
        if (FileKinds.of(live) == FilterKind.MAP) {
            throw new IllegalArgumentException(live + " is a Bloomier map, which never changes once built: copy it whole"
                    + " (cp, or pack and unpack), there is nothing to bring up to date");
        }
        boolean empty = Files.isRegularFile(copy, LinkOption.NOFOLLOW_LINKS) && Files.size(copy) == 0; // as a boot script's touch leaves it
        if (empty || !Files.exists(copy)) {
            Result[] created = new Result[1];
            long diskBytes = Files.isRegularFile(live) ? Files.size(live) : 0; // a disk too small refuses before writing
            FilterFiles.publish(copy, empty, diskBytes,
                    (channel, temporary) -> created[0] = passes(live, copy, channel, progress, true, force));
            return created[0];
        }
        if (Files.isSameFile(live, copy)) {
            throw new IllegalArgumentException(copy + " is the live file itself: give the path of its copy");
        }
        try (FileChannel channel = CheckedFile.openChannel(copy, false);
                FileLock lock = lockOrRefuse(channel, copy)) {
            return passes(live, copy, channel, progress, false, force);
        }
    }

    private static FileLock lockOrRefuse(FileChannel channel, Path copy) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException inThisProcess) {
            lock = null;
        }
        if (lock == null) {
            throw new IOException(copy + ": another checkpoint is writing it; run one at a time");
        }
        return lock;
    }

    /** Patches {@code target} from {@code live} until a pass agrees with the first page it read. */
    private static Result passes(Path live, Path copy, FileChannel target, LongConsumer progress, boolean created,
            boolean force) throws IOException {
        long pages = 0;
        for (int pass = 1; ; pass++) {
            try (LiveFileRead source = LiveFileRead.open(live)) {
                byte[] firstPage = source.firstPage();
                if (!created && pass == 1) {
                    byte[] targetPage = requireCopyOf(live, copy, firstPage, target);
                    if (!force) {
                        CopyOrder.require(live, copy, source, firstPage, targetPage, target);
                    }
                    requireRoom(copy, target, source.length());
                    unseal(targetPage, target);
                }
                try {
                    pages += copyChangedPages(source, target, progress);
                    if (!source.sealWithdrawn()) {
                        if (pages > 0) {
                            target.force(false); // the cells, before the first page that publishes them
                        }
                        pages += writeFirstPage(firstPage, target);
                        target.force(true);
                        return new Result(source.length(), pages * PAGE, pages, created, pass);
                    }
                } catch (IOException e) {
                    throw created ? e : cannotWrite(copy, e); // a new copy's temporary is named by its publisher
                }
                if (pass == ATTEMPTS) {
                    throw new IllegalStateException(live + ": was opened for writing or sealed anew during each of "
                            + ATTEMPTS + " checkpoint passes; the copy holds the pages read, under its old first page: "
                            + "run the checkpoint again");
                }
            }
        }
    }

    /** Refuses, before any write, a copy that must grow (a growing file's new segments) by more than its disk has free. */
    private static void requireRoom(Path copy, FileChannel target, long length) throws IOException {
        long growth = length - target.size();
        if (growth <= 0) {
            return;
        }
        Path dir = copy.toAbsolutePath().getParent();
        long free = Files.getFileStore(dir).getUsableSpace();
        if (free < growth) {
            throw new IOException(copy + ": the checkpoint must add " + growth + " bytes to it, but " + dir + " has "
                    + free + " bytes free; nothing was written: free disk space, then run the checkpoint again "
                    + "(or checkpoint to a new path on another disk)");
        }
    }

    /**
     * A failure to write an existing copy, naming it, what it holds now and what to do; a failure to
     * read the live file (it shrank, or is damaged) is its own.
     */
    private static IOException cannotWrite(Path copy, IOException cause) {
        if (cause instanceof InvalidFilterFileException || cause instanceof EOFException) {
            return cause;
        }
        return new IOException(copy + ": the checkpoint could not write it (" + cause.getMessage() + "); it holds "
                + "every key of the checkpoint before and opens clean; free disk space in "
                + copy.toAbsolutePath().getParent() + ", then run the checkpoint again", cause);
    }

    /**
     * Refuses a target that is not a copy of the live file, or that is open for writing; returns the
     * target's first page.
     */
    private static byte[] requireCopyOf(Path live, Path copy, byte[] firstPage, FileChannel target) throws IOException {
        byte[] page = CheckedFile.readAt(target, 0, firstPage.length);
        if (page.length < HEADER_LENGTH || !Arrays.equals(page, 0, HEADER_LENGTH, firstPage, 0, HEADER_LENGTH)) {
            throw new IllegalArgumentException(copy + " is not a checkpoint of " + live + " (their headers differ): "
                    + "checkpoint to a new path, or delete the copy first");
        }
        if (FileKinds.of(firstPage, firstPage.length) == FilterKind.FIXED && page.length >= Seal.AREA_END) {
            int writers = ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN).getInt(OPEN_WRITERS_OFFSET);
            if (writers != 0) {
                throw new IllegalArgumentException(copy + " is open for writing (" + writers + " open writers): "
                        + "a checkpoint's copy is written only by checkpoints; close what has it open, or checkpoint to a new path");
            }
        }
        return page;
    }

    /** Unseals a sealed fixed target (forced) before any of its cells change: a crash then never leaves a seal over cells it does not match. */
    private static void unseal(byte[] targetPage, FileChannel target) throws IOException {
        if (FileKinds.of(targetPage, targetPage.length) == FilterKind.FIXED && Seal.in(targetPage).sealed()) {
            FilterFiles.writeFully(target, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, UNSEALED),
                    SEAL_STATE_OFFSET);
            target.force(false);
        }
    }

    /**
     * Writes, in file order, every page after the first whose bytes differ in {@code target}; returns
     * how many. Both sides are read into direct buffers, allocated once, that the comparison and the
     * writes use in place: a heap buffer would have the channel copy every byte once more.
     */
    private static long copyChangedPages(LiveFileRead source, FileChannel target, LongConsumer progress) throws IOException {
        ByteBuffer live = ByteBuffer.allocateDirect(CHUNK);
        ByteBuffer copy = ByteBuffer.allocateDirect(CHUNK);
        long pages = 0;
        long length = source.length();
        for (long at = CELLS_START; at < length; at += live.limit()) {
            live.clear().limit((int) Math.min(CHUNK, length - at));
            while (live.hasRemaining()) {
                source.read(live, at + live.position());
            }
            copy.clear().limit(live.limit());
            while (copy.hasRemaining() && target.read(copy, at + copy.position()) > 0) {
                // a copy shorter than the live file (a growing file's new segments, or a new copy) reads short
            }
            int copied = copy.position();
            int run = -1; // where the current run of differing pages starts in the chunk, or -1
            for (int page = 0; page <= live.limit(); page += PAGE) {
                boolean differs = page < live.limit() && (page + PAGE > copied
                        || live.slice(page, PAGE).mismatch(copy.slice(page, PAGE)) >= 0);
                if (differs && run < 0) {
                    run = page;
                } else if (!differs && run >= 0) {
                    FilterFiles.writeFully(target, live.slice(run, page - run), at + run);
                    pages += (page - run) / PAGE;
                    run = -1;
                    CrashPoint.reach(CrashPoint.CHECKPOINT);
                }
            }
            progress.accept(at + live.limit());
        }
        return pages;
    }

    /** Writes the live file's first page, with no open writers, unless the copy's is already that; returns the pages written. */
    private static int writeFirstPage(byte[] firstPage, FileChannel target) throws IOException {
        byte[] page = firstPage.clone();
        if (FileKinds.of(page, page.length) == FilterKind.FIXED) {
            ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN).putInt(OPEN_WRITERS_OFFSET, 0);
        }
        if (Arrays.equals(CheckedFile.readAt(target, 0, page.length), page)) {
            return 0;
        }
        FilterFiles.writeFully(target, ByteBuffer.wrap(page), 0);
        return page.length / PAGE;
    }
}

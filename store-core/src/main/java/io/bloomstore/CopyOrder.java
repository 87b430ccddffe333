package io.bloomstore;

import static io.bloomstore.internal.format.FilterFileDescriptor.CELLS_START;
import static io.bloomstore.internal.format.FilterFileDescriptor.LOWERINGS_OFFSET;

import io.bloomstore.internal.cells.CounterLanes;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.CellRule;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.map.FileKinds;
import io.bloomstore.internal.segment.ContainerImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a checkpoint goes forward: its source (the live file) is not older than its target (an
 * earlier copy of it), so writing one over the other loses nothing. Swapped arguments, an old copy
 * written over the live file it was taken from, would lose every add made since.
 *
 * <p>No counter is kept for it on the add path: cells only rise but where the file says they may
 * fall, so the file's own state and cells tell the order. A plain cell, once set, stays set; a counter
 * only rises but by a remove or an in-place AND merge, which raise the file's count of lowerings
 * (docs/FORMAT.md, "The mutable state"); a growing file only gains segments; a windowed slot's cells
 * only rise while it holds one epoch, and its epoch only rises. So the target is newer, and the
 * checkpoint refused, when its first page is ahead (more lowerings, more segments, a later epoch of
 * the ring or of a slot), or when, where the two pages agree, one of its cells is above the source's.
 * A copy written by checkpoints of the source is never ahead: each of its pages was read from the
 * source at some time, and the source has only risen since.
 */
final class CopyOrder {
    private static final int CHUNK = 1 << 20;

    /** Cells {@code [from, to)} of the file, of {@code counterBits} bits each, in which no target cell may be above the source's. */
    private record Cells(long from, long to, int counterBits) {
    }

    private final Path source;
    private final Path target;
    private final List<Cells> compared;

    private CopyOrder(Path source, Path target, List<Cells> compared) {
        this.source = source;
        this.target = target;
        this.compared = compared;
    }

    /**
     * Refuses a checkpoint of {@code source} over {@code target} that would go backwards: first by
     * their first pages, then by comparing the cells those pages leave in question, all of them
     * before anything is written.
     *
     * @param sourcePage the source's first page, as {@code read} read it first
     * @param targetPage the target's first page, whose header is the source's (checked before)
     * @throws Checkpoint.BackwardsException if the target is newer than the source
     * @throws InvalidFilterFileException if the target's first page is damaged
     */
    static void require(Path source, Path target, LiveFileRead read, byte[] sourcePage, byte[] targetPage,
            FileChannel targetChannel) throws IOException {
        CopyOrder order = new CopyOrder(source, target, new ArrayList<>());
        if (FileKinds.of(sourcePage, sourcePage.length) == FilterKind.FIXED) {
            order.fixed(sourcePage, targetPage, read.length());
        } else {
            ContainerImage from = ContainerImage.decode(source, sourcePage, read.length());
            ContainerImage to = ContainerImage.decode(target, targetPage, targetChannel.size());
            if (from.header().isGrowing()) {
                order.growing(from, to);
            } else {
                order.windowed(from, to);
            }
        }
        order.compareCells(read, targetChannel);
    }

    private void fixed(byte[] sourcePage, byte[] targetPage, long length) throws IOException {
        long sourceLowerings = lowerings(sourcePage);
        long targetLowerings = lowerings(targetPage);
        if (Long.compareUnsigned(targetLowerings, sourceLowerings) > 0) {
            throw backwards("its cells were lowered (by a remove or an AND merge) " + targetLowerings + " times, "
                    + source + "'s only " + sourceLowerings + " times");
        }
        FilterHeader header = FilterHeader.decode(source, sourcePage, length);
        // A stable filter lowers cells at every add, a min-rule valued filter at every smaller value,
        // without counting it: their cells cannot order two copies, and the order is the caller's.
        CellRule.Kind rule = header.rule().kind();
        boolean cellsOnlyRise = rule == CellRule.Kind.PLAIN || rule == CellRule.Kind.MAX;
        if (targetLowerings == sourceLowerings && cellsOnlyRise) { // else cells may have fallen below the target's
            compared.add(new Cells(CELLS_START, length, header.spec().counterBits()));
        }
    }

    private void growing(ContainerImage from, ContainerImage to) {
        if (to.count() > from.count()) {
            throw backwards("it has " + to.count() + " segments, " + source + " only " + from.count());
        }
        for (int i = 0; i < to.regions(); i++) {
            compareRegion(from, to, i);
        }
    }

    private void windowed(ContainerImage from, ContainerImage to) {
        if (to.count() > from.count()) {
            throw backwards("it is at epoch " + to.count() + ", " + source + " at " + from.count());
        }
        for (int j = 0; j < to.regions(); j++) {
            long ours = from.epoch(j);
            long theirs = to.epoch(j);
            if (ours == ContainerDescriptor.CLEARING || theirs == ContainerDescriptor.CLEARING) {
                continue; // a rotation that crashed half-way: the ring's epoch above says which is ahead
            }
            if (theirs > ours) {
                throw backwards("its slot " + j + " holds epoch " + theirs + ", " + source + "'s epoch " + ours);
            }
            if (theirs == ours) {
                compareRegion(from, to, j);
            }
        }
    }

    /** Compares the cells of region {@code i}, which both files hold, at the same place in both (one header sizes both). */
    private void compareRegion(ContainerImage from, ContainerImage to, int i) {
        if (from.offset(i) != to.offset(i) || from.length(i) != to.length(i)) {
            throw new IllegalArgumentException(target + " is not a checkpoint of " + source + " (their region " + i
                    + " lies elsewhere): checkpoint to a new path, or delete the copy first");
        }
        compared.add(new Cells(from.offset(i) + CELLS_START, from.offset(i) + from.length(i), 1));
    }

    /** Reads every compared cell of both files, and refuses at the first target cell above the source's. */
    private void compareCells(LiveFileRead read, FileChannel targetChannel) throws IOException {
        ByteBuffer ours = ByteBuffer.allocateDirect(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer theirs = ByteBuffer.allocateDirect(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        for (Cells cells : compared) {
            for (long at = cells.from(); at < cells.to(); at += ours.limit()) {
                ours.clear().limit((int) Math.min(CHUNK, cells.to() - at));
                while (ours.hasRemaining()) {
                    read.read(ours, at + ours.position());
                }
                if (read.reusedAt(at)) {
                    break; // the source's slot moved to a newer epoch meanwhile: it is ahead there
                }
                theirs.clear().limit(ours.limit());
                while (theirs.hasRemaining() && targetChannel.read(theirs, at + theirs.position()) > 0) {
                    // a shorter target reads short: its missing cells are zero
                }
                for (int i = 0; i + Long.BYTES <= theirs.position(); i += Long.BYTES) {
                    long word = theirs.getLong(i);
                    if (!covers(ours.getLong(i), word, cells.counterBits())) {
                        throw backwards((cells.counterBits() == 1 ? "it has cells set that " + source + " lacks"
                                : "it has counters above " + source + "'s") + ", the first in its byte " + (at + i));
                    }
                }
            }
        }
    }

    /** Whether no cell of {@code word} is above the same cell of {@code source}. */
    private static boolean covers(long source, long word, int counterBits) {
        return counterBits == 1 ? (word & ~source) == 0 : CounterLanes.minimum(source, word, counterBits) == word;
    }

    /** The count of lowerings in a fixed filter's first page; 0 in a page too short to hold it (a damaged copy, rewritten whole). */
    private static long lowerings(byte[] page) {
        return page.length < LOWERINGS_OFFSET + Long.BYTES ? 0
                : ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN).getLong(LOWERINGS_OFFSET);
    }

    private Checkpoint.BackwardsException backwards(String why) {
        return new Checkpoint.BackwardsException(target, source, why);
    }
}

package io.bloomstore.internal.segment;

import io.bloomstore.BloomSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.probe.LoadAhead;
import java.io.IOException;

/**
 * What a growing chain ({@link Growth}) and a windowed ring ({@link Rotation}) share: the regions
 * of one {@link SegmentedFile} that a query probes and an add writes, the protocol that keeps them
 * (a growth, a rotation) and the batch calls over them, run by the one engine of every filter
 * ({@link LoadAhead}). The public handles check that they are open and writable, then delegate
 * here; what is published when is the protocol's, as docs/RELIABILITY.md describes it.
 */
public abstract sealed class Regions implements LoadAhead.Adds permits Growth, Rotation {
    final SegmentedFile file;
    final ContainerHeader header;
    final ContainerState state;
    /** The exceptions an add is refused with. */
    final Refusals refusals;

    Regions(SegmentedFile file, Refusals refusals) {
        this.file = file;
        this.header = file.header();
        this.state = file.state();
        this.refusals = refusals;
    }

    /** Every region of the file, mapped: the published segments of a chain, all slots of a ring. */
    public abstract Segment[] regions();

    /**
     * The regions a query probes now, in the order it asks them. A batch query reads this once per
     * call, not once per key: a slot rotated out during the call holds only expired keys (probing it
     * can only add a false positive), and a region published during the call holds only keys added
     * while the query ran.
     */
    public abstract Segment[] probedRegions();

    /** The epoch region {@code index} holds; 0 for a segment. */
    public abstract long epochOf(int index);

    /** Whether a query now probes region {@code index}. */
    public abstract boolean isProbed(int index);

    /**
     * Adds a key as the kind does, growing or rotating first if it must.
     *
     * @return whether the key was new
     * @throws RuntimeException from {@link Refusals} if the growth or rotation the add needs cannot
     *     be done now
     */
    public abstract boolean add(long hash);

    /** Whether some region a query probes now may hold the key. */
    public abstract boolean mightContain(long hash);

    /**
     * Adds keys in groups: first the lines the group's adds will probe are loaded, all at once
     * ({@link #loadForAdds}: so a key's misses in all regions overlap, as do different keys'), then
     * each key is added as by {@link #add}.
     *
     * @throws RuntimeException as {@link #add}; the keys before the refused one are in
     */
    public int addHashes(long[] hashes, int count) {
        return LoadAhead.addHashes(this, hashes, count);
    }

    /** Queries keys in groups against the regions probed at the start of the call ({@link ProbedRegions}). */
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        return LoadAhead.mightContainHashes(new ProbedRegions(probedRegions()), hashes, count, results);
    }

    /**
     * Loads the lines that adding the keys of {@code hashes[from .. to)} will probe, and returns the
     * sum of the words: here every line of every region (a chain's add asks every segment before it
     * adds to the newest).
     */
    @Override
    public long loadForAdds(long[] hashes, int from, int to) {
        long sum = 0;
        for (Segment region : regions()) {
            sum += region.loadLines(hashes, from, to);
        }
        return sum;
    }

    @Override
    public int addGroup(long[] hashes, int from, int to) {
        int added = 0;
        for (int i = from; i < to; i++) {
            added += add(hashes[i]) ? 1 : 0;
        }
        return added;
    }

    /**
     * Checks the file beyond what opening it checked (docs/FORMAT.md, "What verify detects"): that
     * every region has exactly the shape the container's sizing gives its place, that no region has
     * a padding bit set, and the region table ({@link SegmentedFile#verifyTable}).
     *
     * @throws InvalidFilterFileException naming the first region whose shape or table entry is
     *     wrong ({@code BAD_FIELD}) or whose padding is set ({@code CELLS_PADDING})
     */
    public void verify() throws IOException {
        Segment[] regions = regions();
        BloomSpec checked = null;
        for (int i = 0; i < regions.length; i++) {
            BloomSpec actual = regions[i].spec();
            if (!actual.equals(checked)) { // a ring's slots share one shape, checked once
                header.checkRegion(file.path(), i, actual);
                checked = header.isGrowing() ? null : actual;
            }
            long paddingWord = regions[i].cells().firstWordWithPaddingSet();
            if (paddingWord >= 0) {
                throw new InvalidFilterFileException(file.path(), InvalidFilterFileException.Problem.CELLS_PADDING,
                        (header.isGrowing() ? "segment " : "slot ") + i + ": cells are damaged: bits after its last of "
                                + actual.cells() + " cells (padding, in its cell word " + paddingWord + ") are set, which"
                                + " no operation writes; restore the file from a pack");
            }
        }
        file.verifyTable();
    }

    /** The new keys counted into the regions a query probes now (each one's, as {@link Segment#approximateKeys}). */
    public long approximateKeys() {
        long keys = 0;
        for (Segment region : probedRegions()) {
            keys += region.approximateKeys();
        }
        return keys;
    }

    /**
     * Who holds the file's step lock, taken for the few moments of a growth or a rotation: for
     * {@code verify} and {@code inspect} to tell why adds wait or are refused.
     *
     * @return "free", or which process holds it and whether it runs, is stopped (and how to
     *     resume it) or has ended (its step is finished by the next writer)
     */
    public String stepLock() {
        long owner = file.lockOwner();
        long pid = ContainerState.pidOf(owner);
        return switch (ContainerState.ownerState(owner)) {
            case NONE -> "free";
            case RUNNING -> "held by process " + pid + ", running (a growth or rotation under way)";
            case STOPPED -> "held by process " + pid + ", stopped: adds that need a growth or rotation are refused until"
                    + " it is resumed (kill -CONT " + pid + ") or ended";
            case GONE -> "held by process " + pid + ", which no longer runs: the next writer finishes its step";
        };
    }
}

package io.bloomstore.internal.segment;

import io.bloomstore.BloomSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.Layout;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.probe.BatchProber;
import java.io.IOException;
import java.util.Arrays;

/**
 * What a growing chain ({@link Growth}) and a windowed ring ({@link Rotation}) share: the regions
 * of one {@link SegmentedFile} that a query probes and an add writes, the protocol that keeps them
 * (a growth, a rotation) and the batch calls over them. The public handles check that they are open and writable, then delegate
 * here; what is published when is the protocol's, as docs/RELIABILITY.md describes it.
 */
public abstract sealed class Regions permits Growth, Rotation {
    final SegmentedFile file;
    final ContainerHeader header;
    final ContainerState state;
    /** The exceptions an add is refused with. */
    final Refusals refusals;
    /**
     * This chain's or ring's adds as the batch engine's target: one class for both kinds, so the
     * engine's per-key call sees only it and the fixed filter's ({@link BatchProber} says why).
     */
    private final ProtocolAdds protocolAdds = new ProtocolAdds();

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
     * Adds keys by the batch engine ({@link BatchProber#addInGroups}), in groups: first the lines
     * the group's adds will probe are loaded, all at once ({@link #loadForAdds}, asked again for
     * each group, after any growth or rotation the group before made: so a key's misses in all
     * regions overlap, as do different keys'), then each key is added as by {@link #add}.
     *
     * @throws RuntimeException as {@link #add}; the keys before the refused one are in
     */
    public int addHashes(long[] hashes, int count) {
        return BatchProber.addInGroups(protocolAdds, hashes, count);
    }

    /**
     * Queries keys against the regions probed at the start of the call, in one of two ways by the
     * file's layout (measured at 10 M keys: docs/BENCHMARKS-HISTORY.md, "Segmented batch queries").
     *
     * <p>A one-line layout (blocked, sectorized) goes in groups of {@link BatchProber#BATCH} keys:
     * first the line of each key in every probed region is loaded, all at once, then each key is
     * asked of the regions in turn. A key costs one line a region, so a group overlaps 16 misses a
     * region, 128 in a ring of eight slots. (Through the batch engine's group loop, as the adds go,
     * this measured slower: {@link BatchProber}'s class comment.)
     *
     * <p>A standard layout goes region by region: each region answers the keys not yet found in an
     * earlier one with a fixed filter's batch query ({@link Segment#mightContainHashes}: in rounds,
     * keys in flight, beyond the caches), and only the keys it does not hold go on to the next. An
     * absent key's probing in a region reads about 2 of its k lines, which the rounds load exactly;
     * loading each key's first line in every region at once, as the one-line layouts do, left the
     * other lines to be missed one after another.
     */
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        Segment[] probed = probedRegions();
        return probed.length > 0 && probed[0].spec().layout() == Layout.STANDARD
                ? regionByRegion(probed, hashes, count, results)
                : acrossRegions(probed, hashes, count, results);
    }

    private static int acrossRegions(Segment[] probed, long[] hashes, int count, boolean[] results) {
        int present = 0;
        for (int from = 0; from < count; from += BatchProber.BATCH) {
            int to = Math.min(count, from + BatchProber.BATCH);
            long sum = 0;
            for (Segment region : probed) {
                sum += region.loadFirstLines(hashes, from, to);
            }
            BatchProber.keep(sum);
            for (int i = from; i < to; i++) {
                results[i] = anyMightContain(probed, hashes[i]);
                present += results[i] ? 1 : 0;
            }
        }
        return present;
    }

    private static boolean anyMightContain(Segment[] probed, long hash) {
        for (Segment region : probed) {
            if (region.mightContain(hash)) {
                return true;
            }
        }
        return false;
    }

    private static int regionByRegion(Segment[] probed, long[] hashes, int count, boolean[] results) {
        Arrays.fill(results, 0, count, false);
        long[] asked = hashes; // the keys not found yet, in their order; a copy once one is found
        int[] places = null; // where each of them is in hashes; null while they are hashes[0 .. left)
        int left = count;
        boolean[] found = new boolean[count];
        int present = 0;
        for (Segment region : probed) {
            if (left == 0) {
                break;
            }
            region.mightContainHashes(asked, left, found);
            long[] stillAsked = asked == hashes ? new long[left] : asked; // compacted in place: kept <= i
            int[] stillPlaces = places == null ? new int[left] : places;
            int kept = 0;
            for (int i = 0; i < left; i++) {
                int place = places == null ? i : places[i];
                if (found[i]) {
                    results[place] = true;
                    present++;
                } else {
                    stillAsked[kept] = asked[i];
                    stillPlaces[kept++] = place;
                }
            }
            asked = stillAsked;
            places = stillPlaces;
            left = kept;
        }
        return present;
    }

    /**
     * Loads the lines that adding the keys of {@code hashes[from .. to)} will probe, and returns the
     * sum of the words, which the engine keeps: here every line of every region (a chain's add asks
     * every segment before it adds to the newest).
     */
    long loadForAdds(long[] hashes, int from, int to) {
        long sum = 0;
        for (Segment region : regions()) {
            sum += region.loadLines(hashes, from, to);
        }
        return sum;
    }

    /** The protocol's adds and the lines they probe, as {@link #protocolAdds} says why. */
    private final class ProtocolAdds implements BatchProber.Adds {
        @Override
        public long loadForAdds(long[] hashes, int from, int to) {
            return Regions.this.loadForAdds(hashes, from, to);
        }

        @Override
        public boolean add(long hash) {
            return Regions.this.add(hash);
        }
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
                header.checkRegion(file.path(), i, actual, SizingBefore::sized);
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

package io.bloomstore;

import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import java.time.Duration;
import java.util.Objects;

/**
 * The shape of a {@link WindowedBloomFilter}: a key is found for at least {@code window} after it
 * was added and forgotten within {@code window + window / epochs}.
 *
 * @param expectedKeys n, the keys expected per window (each of the epochs + 1 slots holds n / epochs)
 * @param fpp P, the false-positive rate of a query, which probes every live slot
 * @param window how long a key is remembered at least (whole milliseconds, at least one per epoch)
 * @param epochs L, the epochs the window is cut into (1 to 64; default 8)
 * @param layout the cell layout of every slot
 * @param seed the hash seed (filters must share it, the window and the epochs to be merged)
 */
public record WindowSpec(long expectedKeys, double fpp, Duration window, int epochs, Layout layout, long seed)
        implements SegmentedSpec {
    /**
     * L = 8. The ring holds L + 1 slots of n / L keys, each at rate ~P / (L + 1), so it costs about
     * (1 + 1/L) * 1.44 * (log2(1/P) + log2(L + 1)) bits per key of the window: at P = 1% 16.1
     * bits for L = 4, 15.9 for L = 8, 16.4 for L = 16 (against 9.6 for one fixed filter), while a
     * key outlives the window by at most W / L (12.5% at L = 8) and a negative query probes L + 1
     * slots, whose lines the batch queries load together.
     */
    public static final int DEFAULT_EPOCHS = 8;

    /**
     * Blocked: a ring's query asks all L + 1 slots, so its cost is the slots' misses, and a dedup
     * index asks mostly new (absent) keys. With all of a key's cells in one line of each slot, the
     * first round of the lockstep query loads the key's every cell in every slot at once: about two
     * misses' time for an absent key, where the standard layout, one line per probe, waits about six
     * rounds of misses, and it is faster in the caches too (docs/BENCHMARKS.md, "Windowed
     * filters"). The price is space, since a blocked slot needs more cells for the same rate: at
     * L = 8, 8% more at P = 1%, 15% at 0.1%, 23% at 0.01%. A fixed filter keeps {@link Layout#STANDARD} as its default: its one array costs k
     * misses only for present keys, and its space is the brief's measure.
     */
    public static final Layout DEFAULT_LAYOUT = Layout.BLOCKED;

    /**
     * Checks what can be checked without the sizing.
     *
     * @param expectedKeys n, at least 1; checked, like the other numbers, by {@link WindowedBloomFilter#create}
     * @param fpp P, strictly between 0 and 1
     * @param window the window; checked here: not null
     * @param epochs L, from 1 to 64
     * @param layout the cell layout; checked here: not null, not {@link Layout#SBBF}
     * @param seed any 64-bit value
     */
    public WindowSpec {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(layout, "layout");
        if (layout == Layout.SBBF) {
            throw new IllegalArgumentException("a windowed filter cannot have the sbbf layout: Parquet's filters have one"
                    + " fixed size; use a fixed filter (sized with --expected and --fpp)");
        }
    }

    /**
     * n keys per window at P, with the default epochs ({@value #DEFAULT_EPOCHS}), layout
     * ({@link #DEFAULT_LAYOUT}, blocked) and seed.
     *
     * @param expectedKeys n, the keys expected per window, at least 1
     * @param fpp P, the false-positive rate of a query, strictly between 0 and 1 (0.01 is 1%)
     * @param window how long a key is remembered at least, not null
     * @return the spec; its numbers are checked when a filter is created with it
     */
    public static WindowSpec of(long expectedKeys, double fpp, Duration window) {
        return new WindowSpec(expectedKeys, fpp, window, DEFAULT_EPOCHS, DEFAULT_LAYOUT, BloomSpec.DEFAULT_SEED);
    }

    /**
     * This spec with L epochs.
     *
     * @param count L, from 1 to 64
     * @return a copy with that count
     */
    public WindowSpec withEpochs(int count) {
        return new WindowSpec(expectedKeys, fpp, window, count, layout, seed);
    }

    /**
     * This spec with another cell layout: {@link Layout#STANDARD} for the fewest bytes, at about
     * 2.5 times a blocked ring's query time beyond the caches ({@link #DEFAULT_LAYOUT} says why).
     *
     * @param newLayout the layout of every slot, not null
     * @return a copy with that layout
     */
    public WindowSpec withLayout(Layout newLayout) {
        return new WindowSpec(expectedKeys, fpp, window, epochs, newLayout, seed);
    }

    /**
     * The shape of each of the L + 1 slots, all alike: n / L keys at 1 - (1 - P)^(1 / (L + 1))
     * (docs/FORMAT.md, "Sizing the regions").
     *
     * @return its cells, hashes, layout and seed
     * @throws IllegalArgumentException if a number of this spec is out of range
     */
    public BloomSpec slotSpec() {
        return header().regionSpec(0);
    }

    /**
     * The length of a file of this spec, as {@link WindowedBloomFilter#create} makes it: the
     * container's header page and L + 1 slots, each its header page and cells. It never changes.
     *
     * @return the file's length in bytes
     * @throws IllegalArgumentException if a number of this spec is out of range
     */
    public long fileBytes() {
        return ContainerDescriptor.FIRST_REGION + (epochs + 1L) * ContainerHeader.regionLength(slotSpec());
    }

    /** The container header this spec makes, checked; its creation time plays no part in the sizing. */
    private ContainerHeader header() {
        return ContainerHeader.windowed(layout, seed, expectedKeys, fpp, window.toMillis(), epochs, 0);
    }
}

package io.bloomstore.cli;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.FillStats;
import io.bloomstore.GrowingSpec;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.RegionStats;
import io.bloomstore.StoredFile;
import io.bloomstore.WindowSpec;
import io.bloomstore.tools.UnmappedQueries;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;

/** Opening filter files, naming their kind and shape, and naming key counts, the way every verb does it. */
final class CliFilters {
    /**
     * Why a fixed filter has no cells checksum, true of every unsealed one: a filter made by
     * 'create' was never sealed, and one that was sealed is unsealed by any open for writing.
     */
    static final String NOT_SEALED = "no checksum of its cells is recorded ('build' and 'merge' seal a filter; "
            + "'create' leaves it unsealed, and opening it for writing unseals it)";

    private CliFilters() {
    }

    /**
     * Opens a fixed filter for {@code verb}, which works on no other kind; a missing file gets a
     * message saying how to make one. The file is opened once, whatever its kind: the kind named in
     * a refusal is that of the file opened, never of one found at the path by a second look.
     *
     * @param instead what to do with a growing or windowed file instead, for the line that refuses it
     * @throws UnsupportedOperationException naming the kind if {@code file} is growing or windowed
     */
    static BloomFilter open(Path file, OpenMode mode, String verb, String instead) throws IOException {
        MembershipFilter filter = openAny(file, mode);
        Optional<BloomFilter> fixed = filter.asFixed();
        if (fixed.isPresent()) {
            return fixed.get();
        }
        filter.close();
        throw new UnsupportedOperationException(file + " is a " + filter.kind() + " filter; '" + verb
                + "' works on fixed filters only: " + instead);
    }

    /** Opens a filter file of any kind (a windowed one on the system clock); a missing file gets a message saying how to make one. */
    static MembershipFilter openAny(Path file, OpenMode mode) throws IOException {
        return openAny(file, mode, false);
    }

    /**
     * Opens a filter file of any kind as {@link #openAny(Path, OpenMode)}; with {@code unmapped}, read-only
     * and a fixed filter not mapped ({@link UnmappedQueries}), for a query of a few keys.
     */
    static MembershipFilter openAny(Path file, OpenMode mode, boolean unmapped) throws IOException {
        try {
            return unmapped ? UnmappedQueries.open(file) : MembershipFilter.open(file, mode);
        } catch (NoSuchFileException e) {
            throw missing(file);
        }
    }

    /** Opens a bloomstore file of any kind, a Bloomier map too, read-only; a missing file gets the message of {@link #openAny}. */
    static StoredFile openStored(Path file) throws IOException {
        try {
            return StoredFile.open(file);
        } catch (NoSuchFileException e) {
            throw missing(file);
        }
    }

    private static NoSuchFileException missing(Path file) {
        return new NoSuchFileException(file.toString(), null,
                "no such filter file; make one with 'bloomstore create' or 'bloomstore build'");
    }

    /** The shape of an open filter in one line, as create and build print it. */
    static String describe(MembershipFilter filter) {
        return filter.shape().map(fixed -> Human.shape(fixed.spec(), fixed.fileBytes()), growing -> {
            GrowingSpec spec = growing.spec();
            int segments = growing.segments();
            return "growing, " + segments + (segments == 1 ? " segment" : " segments") + " (the first holds "
                    + keys(spec.expectedKeys()) + ", each next one " + Human.factor(spec.growthFactor())
                    + " as many); false positives under " + Human.percent(spec.fpp()) + "; "
                    + (spec.maxBytes() > 0 ? "at most " + Human.bytes(spec.maxBytes()) : "no size limit")
                    + " (" + Human.bytes(growing.fileBytes()) + ")";
        }, windowed -> {
            WindowSpec spec = windowed.spec();
            return "windowed, keys remembered " + Human.duration(spec.window()) + " (" + spec.epochs()
                    + (spec.epochs() == 1 ? " epoch" : " epochs") + " of " + Human.duration(spec.window().dividedBy(spec.epochs()))
                    + "), " + keys(spec.expectedKeys()) + " per window at " + Human.percent(spec.fpp())
                    + " false positives (" + Human.bytes(windowed.fileBytes()) + ")";
        });
    }

    /** "3 keys" / "1 key". */
    static String keys(long n) {
        return Human.count(n) + (n == 1 ? " key" : " keys");
    }

    /** An estimated key count, rounded: "1,234 keys", "1 key", or unknown when every cell is set. */
    static String estimatedKeys(double n) {
        return Double.isFinite(n) ? keys(Math.round(n)) : Human.estimate(n);
    }

    /**
     * A warning that a filter is past its capacity, without its "bloomstore: warning: " prefix,
     * and the false-positive rate it names.
     */
    record PastCapacity(String message, double rate) {
        /** Prints the warning on stderr after what stdout holds so far, from a new line if {@code midLine}. */
        void printTo(CliStreams streams, boolean midLine) {
            streams.text().flush();
            streams.err().println((midLine ? "\n" : "") + "bloomstore: warning: " + message);
        }
    }

    /**
     * The warning that a fixed filter now holds more keys than it was sized for, or that an epoch
     * of a windowed one took more than its share of the window's keys, with what that does to the
     * false-positive rate and what to do: a command that leaves a filter past its capacity must not
     * look like one that did not (for dedup, every false positive is a new line dropped as a
     * repeat). A growing filter has no capacity to pass. {@link CapacityWatch} says when to ask.
     *
     * @return the warning, or null if the filter is within its capacity
     */
    static PastCapacity pastCapacity(MembershipFilter filter) {
        if (!filter.isPastCapacity()) {
            return null;
        }
        return filter.shape().map(fixed -> pastCapacity(filter.path(), fixed.spec(), filter.approximateKeys()),
                growing -> null, windowed -> epochPastCapacity(filter.path(), windowed.spec(), filter.stats()));
    }

    /** The warning of {@link #pastCapacity(MembershipFilter)} for a fixed filter of {@code spec} holding about {@code keys}. */
    static PastCapacity pastCapacity(Path file, BloomSpec spec, long keys) {
        double rate = spec.expectedFpp(keys);
        return new PastCapacity(file + " holds about " + keys(keys) + ", past the " + Human.count(spec.expectedKeys())
                + " it was sized for: its false-positive rate is now about " + Human.percent(rate) + " (sized for "
                + Human.percent(spec.targetFpp()) + "); rebuild it larger (build --expected N), or use a filter that "
                + "never fills (create --grow, or --window)", rate);
    }

    /** The warning of {@link #pastCapacity(MembershipFilter)} for a windowed filter, with the rate now from {@code stats}. */
    private static PastCapacity epochPastCapacity(Path file, WindowSpec spec, FillStats stats) {
        RegionStats fullest = stats.parts().stream().filter(RegionStats::probed)
                .max(Comparator.comparingLong(RegionStats::publishedKeys)).orElseThrow();
        return new PastCapacity(file + ": an epoch of its window holds about "
                + keys(fullest.publishedKeys()) + ", past the " + Human.count(fullest.capacity())
                + " each was sized for (" + Human.count(spec.expectedKeys()) + " per window over " + spec.epochs()
                + " epochs): a query's false-positive rate is now about " + Human.percent(stats.currentFpp())
                + " (sized for " + Human.percent(spec.fpp()) + ") until that epoch leaves the window; create it again "
                + "with --expected at least " + spec.epochs() + " times the keys of the busiest epoch",
                stats.currentFpp());
    }
}

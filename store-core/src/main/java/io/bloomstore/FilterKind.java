package io.bloomstore;

import java.util.Locale;

/** The kinds of bloomstore file (docs/FORMAT.md), as {@link MembershipFilter#kind()} names them. */
public enum FilterKind {
    /** A fixed-capacity filter, format version 1: {@link BloomFilter}. */
    FIXED,
    /** A growing chain of segments, format version 2: {@link GrowingBloomFilter}. */
    GROWING,
    /** A time-windowed ring of slots, format version 2: {@link WindowedBloomFilter}. */
    WINDOWED,
    /** A static map from keys to values, format version 5: {@link BloomierMap}; not a filter. */
    MAP;

    /** The kind as messages name it: "fixed", "growing", "windowed", "map". */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}

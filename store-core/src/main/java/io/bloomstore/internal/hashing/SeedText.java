package io.bloomstore.internal.hashing;

import java.util.Locale;

/** How every message and report of a filter shows a seed. */
public final class SeedText {
    private SeedText() {
    }

    /**
     * A seed as 16 hex digits after {@code 0x}, the form the command line's {@code --seed} takes back.
     *
     * @param seed any seed
     * @return e.g. {@code 0x626c6f6f6d737472}
     */
    public static String of(long seed) {
        return String.format(Locale.ROOT, "0x%016x", seed);
    }
}

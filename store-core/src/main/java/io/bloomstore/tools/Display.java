package io.bloomstore.tools;

import io.bloomstore.internal.hashing.SeedText;

/** How the command line and the server show a filter's values, as the library's own messages do. */
public final class Display {
    private Display() {
    }

    /**
     * A seed as 16 hex digits after {@code 0x}, the one way every message and report of a filter
     * shows it (the command line's {@code --seed} takes it back).
     *
     * @param seed any seed
     * @return e.g. {@code 0x626c6f6f6d737472}
     */
    public static String seedText(long seed) {
        return SeedText.of(seed);
    }
}

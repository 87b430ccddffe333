package io.bloomstore.cli;

import java.nio.charset.StandardCharsets;

/** Key files for the tests: numbered keys, one per line. */
final class KeyLines {
    private KeyLines() {
    }

    /** {@code prefix + i} for i in [from, to), each followed by a newline. */
    static String numbered(String prefix, int from, int to) {
        StringBuilder lines = new StringBuilder();
        for (int i = from; i < to; i++) {
            lines.append(prefix).append(i).append('\n');
        }
        return lines.toString();
    }

    /** {@link #numbered} as bytes. */
    static byte[] numberedBytes(String prefix, int from, int to) {
        return numbered(prefix, from, to).getBytes(StandardCharsets.US_ASCII);
    }
}

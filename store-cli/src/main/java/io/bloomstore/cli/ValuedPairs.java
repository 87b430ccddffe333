package io.bloomstore.cli;

import io.bloomstore.KeySource;
import io.bloomstore.OpenMode;
import io.bloomstore.ValuedFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code add} on a valued filter (docs/FORMAT.md, "Cell rules"): KEY=VALUE arguments, then
 * KEY&lt;TAB&gt;VALUE lines of --from, each split at its last separator so that a key may hold
 * either character; the value is a decimal number of at most W bits.
 */
final class ValuedPairs {
    private ValuedPairs() {
    }

    /** Adds the pairs {@code operands} give to the valued file they name; prints one line of counts. */
    static int add(FileAndKeys operands, CliStreams streams, RawArguments raw, boolean sync) throws IOException {
        if (operands.arguments.isEmpty() && !operands.lines.isGiven()) {
            throw new IllegalArgumentException("no pairs given: pass KEY=VALUE arguments after FILE, or --from PATH "
                    + "(- for stdin) of KEY<TAB>VALUE lines");
        }
        long pairs = 0;
        long changed = 0;
        try (ValuedFilter filter = ValuedFilter.open(operands.file, OpenMode.READ_WRITE)) {
            for (String argument : operands.arguments) {
                byte[] bytes = raw.bytesOf(argument);
                int at = lastIndexOf(bytes, 0, bytes.length, (byte) '=');
                if (at <= 0) {
                    throw new IllegalArgumentException("argument '" + argument + "' is not KEY=VALUE: " + operands.file
                            + " is a valued filter, so each key comes with its value, e.g. alice=3");
                }
                long value = value(bytes, at + 1, bytes.length, filter, "argument '" + argument + "'");
                changed += filter.putHash(filter.hasher().hash(bytes, 0, at), value) ? 1 : 0;
                pairs++;
            }
            if (operands.lines.isGiven()) {
                try (KeySource lines = operands.lines.open(streams, null)) {
                    Counts counts = addLines(filter, lines, operands.lines.name(), operands.file);
                    pairs += counts.pairs();
                    changed += counts.changed();
                }
            }
            if (sync) {
                filter.filter().sync();
            }
        }
        streams.text().println("added " + Human.count(pairs) + (pairs == 1 ? " pair" : " pairs") + " to " + operands.file
                + ": " + Human.count(changed) + " changed a cell, " + Human.count(pairs - changed)
                + " already read that value or one " + "beyond it");
        return ExitCode.OK;
    }

    /** Pairs read, and those that changed a cell. */
    record Counts(long pairs, long changed) {
    }

    /**
     * Adds the KEY&lt;TAB&gt;VALUE lines of {@code lines} (named {@code input} in errors) to {@code filter},
     * the valued file {@code file}.
     */
    static Counts addLines(ValuedFilter filter, KeySource lines, String input, java.nio.file.Path file) throws IOException {
        long[] counts = {0, 0};
        lines.forEach(filter.hasher(), (bytes, offset, length, hash) -> {
            counts[0]++;
            int tab = lastIndexOf(bytes, offset, offset + length, (byte) '\t');
            if (tab <= offset) {
                throw new IllegalArgumentException("pair " + counts[0] + " of " + input + " ('"
                        + new String(bytes, offset, length, StandardCharsets.UTF_8) + "') is not KEY<TAB>VALUE: "
                        + file + " is a valued filter, so each line holds a key, a TAB and its value");
            }
            long value = value(bytes, tab + 1, offset + length, filter, "pair " + counts[0] + " of " + input);
            counts[1] += filter.putHash(filter.hasher().hash(bytes, offset, tab - offset), value) ? 1 : 0;
        });
        return new Counts(counts[0], counts[1]);
    }

    /** The decimal value in {@code bytes[from, to)}, checked to fit the file's value bits. */
    private static long value(byte[] bytes, int from, int to, ValuedFilter filter, String where) {
        String text = new String(bytes, from, to - from, StandardCharsets.UTF_8);
        long value = -1;
        if (!text.isEmpty() && text.length() <= 19 && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            value = Long.parseLong(text);
        }
        if (value < 0) {
            throw new IllegalArgumentException(where + ": value '" + text + "' is not a whole number from 0 to "
                    + filter.maxValue());
        }
        if (value > filter.maxValue()) {
            throw new IllegalArgumentException(where + ": value " + value + " is wider than the file's "
                    + filter.valueBits() + " value bits (0 to " + filter.maxValue() + "); create it with more --value-bits");
        }
        return value;
    }

    private static int lastIndexOf(byte[] bytes, int from, int to, byte separator) {
        for (int i = to - 1; i >= from; i--) {
            if (bytes[i] == separator) {
                return i;
            }
        }
        return -1;
    }
}

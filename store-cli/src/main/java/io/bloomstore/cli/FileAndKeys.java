package io.bloomstore.cli;

import static io.bloomstore.cli.Model.operand;
import static io.bloomstore.cli.Model.operands;

import io.bloomstore.KeySource;
import java.io.Flushable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The operands of add, contains, remove and count: {@code FILE [KEY...] [--from PATH|-]}. The keys
 * are the arguments after FILE, then the lines of --from; a key is the same bytes whichever way it
 * comes in, and the same as a Java {@code CharSequence} key with those UTF-8 bytes.
 */
final class FileAndKeys {
    Path file;
    List<String> arguments = new ArrayList<>();
    final LineInput lines = new LineInput();

    /** Declares FILE, KEY... and --from on {@code command}, read into this. */
    FileAndKeys(CommandSpec command) {
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value).description("The filter file.").build());
        command.addPositional(operands(1, "0..*", "KEY", String.class, values -> arguments = values)
                .description("Keys, one per argument, taken as the exact bytes typed.").build());
        lines.declareOn(command);
    }

    /**
     * Opens the keys: the arguments, then --from.
     *
     * @param beforeRead flushed before each read that may block (or null)
     * @throws IllegalArgumentException if no key was given at all, or an argument is empty
     */
    KeySource open(CliStreams streams, RawArguments raw, Flushable beforeRead) throws IOException {
        if (arguments.isEmpty() && !lines.isGiven()) {
            throw new IllegalArgumentException("no keys given: pass them as arguments after FILE, or --from PATH (- for stdin)");
        }
        List<byte[]> keys = new ArrayList<>(arguments.size());
        for (String argument : arguments) {
            if (argument.isEmpty()) {
                throw new IllegalArgumentException("an empty argument is not a key (a key has at least one byte)");
            }
            keys.add(raw.bytesOf(argument));
        }
        List<KeySource> sources = new ArrayList<>(2);
        sources.add(KeySource.of(keys));
        if (lines.isGiven()) {
            sources.add(lines.open(streams, beforeRead));
        }
        return KeySource.concat(sources);
    }

    /** Bytes of --from when it is a file, for a progress bar; -1 when unknown. */
    long size() throws IOException {
        return lines.size();
    }
}

package io.bloomstore.cli;

import static io.bloomstore.cli.Model.option;

import io.bloomstore.KeySource;
import java.io.Flushable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code --from PATH|-} option: keys as lines of a file, or of stdin. */
final class LineInput {
    static final String STDIN = "-";

    String from;

    /** The input {@code --from pathOrDash} would name. */
    static LineInput of(String pathOrDash) {
        LineInput input = new LineInput();
        input.from = pathOrDash;
        return input;
    }

    /** Declares --from on {@code command}, read into this; returns this. */
    LineInput declareOn(CommandSpec command) {
        command.addOption(option(String.class, value -> from = value, "--from").paramLabel("PATH|-")
                .description("Read keys from this file, one per line, or from stdin with '-'. A trailing \\r is "
                        + "dropped and empty lines are skipped; every other byte is part of the key.")
                .build());
        return this;
    }

    boolean isGiven() {
        return from != null;
    }

    boolean isStdin() {
        return STDIN.equals(from);
    }

    /** The file's path; only when given and not stdin. */
    Path path() {
        return Path.of(from);
    }

    /** How to name the input in messages. */
    String name() {
        return isStdin() ? "stdin" : from;
    }

    /** Opens the lines; {@code beforeRead} is flushed before each read that may block (or null). */
    KeySource open(CliStreams streams, Flushable beforeRead) throws IOException {
        InputStream in = isStdin() ? streams.in() : Files.newInputStream(path());
        return KeySource.lines(in, beforeRead);
    }

    /** The input's size in bytes, for a progress bar; -1 when unknown (stdin, a pipe). */
    long size() throws IOException {
        return isGiven() && !isStdin() && Files.isRegularFile(path()) ? Files.size(path()) : -1;
    }
}

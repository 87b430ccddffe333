package io.bloomstore.cli;

import static io.bloomstore.cli.Model.option;

import io.bloomstore.KeySource;
import java.io.FilterInputStream;
import java.io.Flushable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
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

    /**
     * The file's path; only when given and not stdin.
     *
     * @throws FileSystemException if it is a directory, which the JDK would read only to fail with a bare "Is a directory"
     */
    Path path() throws FileSystemException {
        Path path = Path.of(from);
        if (Files.isDirectory(path)) {
            throw new FileSystemException(from, null, "is a directory; --from takes a file of keys, one per line (or - for stdin)");
        }
        return path;
    }

    /** How to name the input in messages. */
    String name() {
        return isStdin() ? "stdin" : from;
    }

    /** Opens the lines; {@code beforeRead} is flushed before each read that may block (or null). */
    KeySource open(CliStreams streams, Flushable beforeRead) throws IOException {
        InputStream in = isStdin() ? streams.in() : Files.newInputStream(path());
        return KeySource.lines(new NamedInput(in, name()), beforeRead);
    }

    /** The input, whose read errors name it: the JDK's say only what failed ("Input/output error"). */
    private static final class NamedInput extends FilterInputStream {
        private final String name;

        NamedInput(InputStream in, String name) {
            super(in);
            this.name = name;
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (IOException e) {
                throw named(e);
            }
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            try {
                return in.read(bytes, offset, length);
            } catch (IOException e) {
                throw named(e);
            }
        }

        private IOException named(IOException e) {
            if (e instanceof FileSystemException) {
                return e;
            }
            FileSystemException named = new FileSystemException(name, null, "cannot read it: " + e.getMessage());
            named.initCause(e);
            return named;
        }
    }

    /** The input's size in bytes, for a progress bar; -1 when unknown (stdin, a pipe). */
    long size() throws IOException {
        return isGiven() && !isStdin() && Files.isRegularFile(path()) ? Files.size(path()) : -1;
    }
}

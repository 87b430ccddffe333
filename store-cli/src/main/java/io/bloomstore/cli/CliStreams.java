package io.bloomstore.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The standard streams a command talks through, injectable so tests run commands in-process.
 *
 * <p>Keys are bytes, so {@link #out()} is a raw byte stream (buffered, flushed by the commands when
 * a consumer must see the output); text goes through {@link #text()}, UTF-8 over the same stream.
 */
final class CliStreams {
    private static final int OUTPUT_BUFFER = 1 << 16;

    private final StdinOpener in;
    private final ReaderAwareOutput out;
    private final PrintWriter text;
    private final PrintStream err;
    private final boolean stdoutIsTerminal;
    private final boolean stderrIsTerminal;

    CliStreams(InputStream in, OutputStream out, PrintStream err, boolean stdoutIsTerminal, boolean stderrIsTerminal) {
        this(() -> in, out, err, stdoutIsTerminal, stderrIsTerminal);
    }

    private CliStreams(StdinOpener in, OutputStream out, PrintStream err, boolean stdoutIsTerminal,
            boolean stderrIsTerminal) {
        this.in = in;
        this.out = new ReaderAwareOutput(out);
        this.text = new PrintWriter(new OutputStreamWriter(this.out, StandardCharsets.UTF_8), false);
        this.err = err;
        this.stdoutIsTerminal = stdoutIsTerminal;
        this.stderrIsTerminal = stderrIsTerminal;
    }

    /** The process's own streams; stdout unbuffered by the JDK, buffered here once. */
    static CliStreams system() {
        return new CliStreams(StandardInput::open, new UnlockedBuffer(new FileOutputStream(FileDescriptor.out)),
                new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8),
                Terminals.isTerminal(Terminals.STDOUT), Terminals.isTerminal(Terminals.STDERR));
    }

    /** Standard input, for a command that reads it; refused if the process was started without one ({@link StandardInput}). */
    InputStream in() throws IOException {
        return in.open();
    }

    /** Standard output as bytes. Flush {@link #text()} before writing here if both are used. */
    OutputStream out() {
        return out;
    }

    /** Standard output as UTF-8 text. */
    PrintWriter text() {
        return text;
    }

    /** The last failure to write standard output, or null: the text side swallows it, the error line must not. */
    IOException outputFailure() {
        return out.failure;
    }

    /** Whether standard output's reader went away (a write failed with a broken pipe). */
    boolean outputClosedByReader() {
        return out.readerGone;
    }

    PrintStream err() {
        return err;
    }

    boolean stdoutIsTerminal() {
        return stdoutIsTerminal;
    }

    boolean stderrIsTerminal() {
        return stderrIsTerminal;
    }

    /** Opens standard input when a command asks for it: the process's own is checked first. */
    @FunctionalInterface
    private interface StdinOpener {
        InputStream open() throws IOException;
    }

    /**
     * Standard output, remembering whether a write failed because the reader closed the pipe: the
     * text side ({@link PrintWriter}) swallows its errors, and the command that wrote may report
     * the failure in words of its own, so the flag is what tells the reader's choice from an error.
     */
    private static final class ReaderAwareOutput extends FilterOutputStream {
        private volatile boolean readerGone;
        private volatile IOException failure;

        ReaderAwareOutput(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw noted(e);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            try {
                out.write(bytes, offset, length);
            } catch (IOException e) {
                throw noted(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw noted(e);
            }
        }

        private IOException noted(IOException e) {
            if ("Broken pipe".equals(e.getMessage())) {
                readerGone = true;
                return e;
            }
            // The JDK's message names no file ("No space left on device"): say it is stdout, and where it goes.
            failure = new IOException("cannot write to stdout" + stdoutTarget() + ": " + e.getMessage(), e);
            return failure;
        }

        /** " (PATH)" when stdout is a file, by /proc/self/fd/1 on Linux; else "". */
        private static String stdoutTarget() {
            try {
                String target = Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
                return target.startsWith("/") ? " (" + target + ")" : "";
            } catch (IOException | UnsupportedOperationException e) {
                return "";
            }
        }
    }

    /**
     * A {@link java.io.BufferedOutputStream} without its lock: a command writes stdout from one
     * thread, and {@code contains} writes twice a key, where taking and releasing the JDK's lock
     * on each write cost about a tenth of a 3 M-line query's CPU (docs/BENCHMARKS-HISTORY.md,
     * "Whole processes").
     */
    private static final class UnlockedBuffer extends OutputStream {
        private final OutputStream out;
        private final byte[] buffer = new byte[OUTPUT_BUFFER];
        private int used;

        UnlockedBuffer(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            if (used == buffer.length) {
                drain();
            }
            buffer[used++] = (byte) b;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (length > buffer.length - used) {
                drain();
                if (length >= buffer.length) {
                    out.write(bytes, offset, length); // no copy for what would fill the buffer alone
                    return;
                }
            }
            System.arraycopy(bytes, offset, buffer, used, length);
            used += length;
        }

        @Override
        public void flush() throws IOException {
            drain();
            out.flush();
        }

        @Override
        public void close() throws IOException {
            try {
                flush();
            } finally {
                out.close();
            }
        }

        private void drain() throws IOException {
            if (used > 0) {
                out.write(buffer, 0, used); // a failed write keeps the bytes for the next flush, as the JDK's does
                used = 0;
            }
        }
    }
}

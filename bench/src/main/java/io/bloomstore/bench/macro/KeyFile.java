package io.bloomstore.bench.macro;

import io.bloomstore.bench.Keys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Key files, one key per line, as {@code bloomstore build} reads them: writing the benchmark's
 * file, splitting it at line boundaries for several threads, and reading lines as raw bytes
 * without making a String per line.
 *
 * <p>Lines follow the CLI's rules: a trailing {@code \r} is dropped and empty lines are skipped.
 * The key of a line is its bytes, which for ASCII lines are also the UTF-8 bytes Guava's
 * {@code Funnels.stringFunnel(UTF_8)} hashes, so both sides add the same keys.
 */
public final class KeyFile {
    /** Bytes of one generated line: 16 hex digits and '\n'. */
    public static final int LINE_BYTES = 17;
    private static final int BUFFER_BYTES = 1 << 20;

    private KeyFile() {
    }

    /** Receives the lines of a key file; the bytes are valid only during the call. */
    @FunctionalInterface
    public interface LineSink {
        void line(byte[] bytes, int offset, int length);
    }

    /**
     * Makes {@code file} hold the lines of key indices {@code [0, lines)} ({@link Keys#hexLine}),
     * writing it only if it is missing or of another size.
     */
    public static void ensure(Path file, long lines) throws IOException {
        long size = lines * LINE_BYTES;
        if (Files.exists(file) && Files.size(file) == size) {
            return;
        }
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        byte[] buffer = new byte[(BUFFER_BYTES / LINE_BYTES) * LINE_BYTES];
        try (FileChannel out = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long line = 0;
            while (line < lines) {
                int length = 0;
                while (length < buffer.length && line < lines) {
                    Keys.hexLine(line++, buffer, length);
                    buffer[length + 16] = '\n';
                    length += LINE_BYTES;
                }
                ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, length);
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
            }
        }
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * {@code parts + 1} offsets cutting {@code file} into {@code parts} ranges of about equal size,
     * each starting at the beginning of a line: range i is {@code [cuts[i], cuts[i + 1])}.
     */
    public static long[] split(FileChannel file, int parts) throws IOException {
        long size = file.size();
        long[] cuts = new long[parts + 1];
        cuts[parts] = size;
        ByteBuffer probe = ByteBuffer.allocate(4096);
        for (int i = 1; i < parts; i++) {
            long at = Math.max(cuts[i - 1], size * i / parts);
            cuts[i] = nextLineStart(file, at, probe);
        }
        return cuts;
    }

    /** The first offset at or after {@code at} that starts a line (or the file size). */
    private static long nextLineStart(FileChannel file, long at, ByteBuffer probe) throws IOException {
        if (at == 0) {
            return 0;
        }
        long position = at - 1; // a line starts at `at` if the byte before it ends one
        while (true) {
            probe.clear();
            int read = file.read(probe, position);
            if (read <= 0) {
                return file.size();
            }
            for (int i = 0; i < read; i++) {
                if (probe.get(i) == '\n') {
                    return position + i + 1;
                }
            }
            position += read;
        }
    }

    /**
     * Calls {@code sink} with every non-empty line in {@code [from, to)} of {@code file}, without its
     * line end. {@code from} must start a line; {@code to} must start one or be the file size.
     * Positional reads, so several threads may read ranges of one channel at once.
     *
     * @return the number of lines passed to the sink
     */
    public static long forEachLine(FileChannel file, long from, long to, LineSink sink) throws IOException {
        return forEachLine(file, from, to, sink, BUFFER_BYTES);
    }

    static long forEachLine(FileChannel file, long from, long to, LineSink sink, int bufferBytes) throws IOException {
        byte[] buffer = new byte[bufferBytes];
        long position = from;
        int kept = 0; // bytes of an unfinished line at the start of buffer
        long lines = 0;
        while (position < to) {
            if (kept == buffer.length) {
                buffer = Arrays.copyOf(buffer, buffer.length * 2); // a line longer than the buffer
            }
            ByteBuffer into = ByteBuffer.wrap(buffer, kept, (int) Math.min(buffer.length - kept, to - position));
            int read = file.read(into, position);
            if (read <= 0) {
                break;
            }
            position += read;
            int end = kept + read;
            int lineStart = 0;
            for (int i = 0; i < end; i++) {
                if (buffer[i] == '\n') {
                    lines += emit(buffer, lineStart, i, sink);
                    lineStart = i + 1;
                }
            }
            kept = end - lineStart;
            System.arraycopy(buffer, lineStart, buffer, 0, kept);
        }
        return lines + emit(buffer, 0, kept, sink); // a last line without '\n'
    }

    private static int emit(byte[] buffer, int start, int end, LineSink sink) {
        if (end > start && buffer[end - 1] == '\r') {
            end--;
        }
        if (end == start) {
            return 0;
        }
        sink.line(buffer, start, end - start);
        return 1;
    }
}

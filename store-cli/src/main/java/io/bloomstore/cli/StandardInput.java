package io.bloomstore.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Standard input, opened only if the process was given one.
 *
 * <p>A process started with descriptor 0 closed ({@code bloomstore add f.bloom --from - <&-}) has
 * no stdin, but the JVM does not leave the slot empty: the first file it opens for itself takes the
 * lowest free descriptor, 0, and on JDK 17 and 25 that is its runtime image, {@code lib/modules}.
 * Reading "stdin" then reads that image as keys (856,128 of them, exit 0). So before stdin is read:
 * <ul>
 * <li>the launcher, bin/bloomstore, knows for certain (a shell sees the closed descriptor before
 *     the JVM starts) and says so with {@value #CLOSED_PROPERTY};
 * <li>otherwise (the jar run by {@code java -jar}), on Linux, {@code /proc/self/fd/0} is missing
 *     (nothing took the slot) or names a file this process has mapped into memory: the JVM maps its
 *     runtime image and class-data archives before any code of bloomstore runs, while an inherited
 *     stdin is a pipe, a terminal or a file nobody here has mapped yet. (Where there is no
 *     {@code /proc}, only the launcher's word counts.)
 * </ul>
 */
final class StandardInput {
    /** Set to {@code true} by bin/bloomstore when it was started with descriptor 0 closed. */
    static final String CLOSED_PROPERTY = "bloomstore.stdin.closed";

    private static final Path DESCRIPTOR = Path.of("/proc/self/fd/0");
    private static final Path MAPPINGS = Path.of("/proc/self/maps");

    private StandardInput() {
    }

    /**
     * The process's stdin.
     *
     * @throws IOException saying what to do instead when the process was started without one
     */
    static InputStream open() throws IOException {
        if (Boolean.getBoolean(CLOSED_PROPERTY)) {
            throw closed("");
        }
        String occupant = jvmFileAtDescriptorZero();
        if (occupant != null) {
            throw closed(occupant.isEmpty() ? "" : " (descriptor 0 now holds " + occupant + ", which the JVM opened for itself)");
        }
        return new FileInputStream(FileDescriptor.in);
    }

    /** "" if descriptor 0 is closed, the file's path if the JVM opened it for itself, null if it is the stdin given. */
    private static String jvmFileAtDescriptorZero() throws IOException {
        if (!Files.isDirectory(DESCRIPTOR.getParent())) {
            return null; // no /proc: nothing to tell by
        }
        String target;
        try {
            target = Files.readSymbolicLink(DESCRIPTOR).toString();
        } catch (NoSuchFileException e) {
            return "";
        }
        if (!target.startsWith("/")) {
            return null; // pipe:[…], socket:[…], anon_inode:…: never a file the JVM opens for itself
        }
        String mapped = " " + target;
        try (Stream<String> mappings = Files.lines(MAPPINGS)) {
            return mappings.anyMatch(line -> line.endsWith(mapped)) ? target : null;
        }
    }

    private static IOException closed(String detail) {
        return new IOException("stdin is closed: this command was started with descriptor 0 closed (as by '<&-')"
                + detail + ", so there is nothing to read; give it input (< FILE or a pipe), or name a file instead of -");
    }
}

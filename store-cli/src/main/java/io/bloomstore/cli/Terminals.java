package io.bloomstore.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a standard stream of this process is a terminal.
 *
 * <p>{@link System#console()} cannot answer it: on JDK 17 it is null as soon as stdin or stdout is
 * redirected, so {@code bloomstore build f.bloom --from - < keys} would lose its progress bar on a
 * terminal stderr, and it says nothing about stderr itself. On Linux the answer is exact and free:
 * {@code /proc/self/fd/N} links to the device the descriptor is open on, and terminals are
 * {@code /dev/pts/*} (pseudo-terminals), {@code /dev/tty*} and {@code /dev/console}. Elsewhere the
 * console is the best guess there is.
 */
final class Terminals {
    static final int STDOUT = 1;
    static final int STDERR = 2;

    private Terminals() {
    }

    /** Whether file descriptor {@code fd} (1 or 2) is open on a terminal. */
    static boolean isTerminal(int fd) {
        Path link = Path.of("/proc/self/fd/" + fd);
        try {
            String target = Files.readSymbolicLink(link).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException e) {
            return System.console() != null;
        }
    }
}

package io.bloomstore.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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

    /**
     * The width of the controlling terminal, in columns, or {@code otherwise} if it cannot be told:
     * {@code $COLUMNS} when the shell exported it, else {@code stty size} on {@code /dev/tty}, which
     * asks the terminal driver (the ioctl Java cannot make) in a few milliseconds, paid only by
     * commands that draw a bar.
     */
    static int columns(int otherwise) {
        Integer exported = positive(System.getenv("COLUMNS"));
        if (exported != null) {
            return exported;
        }
        try {
            Process stty = new ProcessBuilder("stty", "size")
                    .redirectInput(new File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String rowsAndColumns = new String(stty.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (stty.waitFor(1, TimeUnit.SECONDS) && stty.exitValue() == 0) {
                Integer columns = positive(rowsAndColumns.substring(rowsAndColumns.indexOf(' ') + 1));
                if (columns != null) {
                    return columns;
                }
            }
        } catch (IOException e) {
            // no stty, or no controlling terminal: the default width will do
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return otherwise;
    }

    private static Integer positive(String digits) {
        if (digits == null || !digits.matches("[1-9][0-9]{0,4}")) {
            return null;
        }
        return Integer.valueOf(digits);
    }
}

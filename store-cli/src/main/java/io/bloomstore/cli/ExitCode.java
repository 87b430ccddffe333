package io.bloomstore.cli;

/** The exit statuses of bloomstore, a contract with the scripts that call it (docs/CLI.md). */
final class ExitCode {
    /** The command did what was asked; for contains, every key is present. */
    static final int OK = 0;
    /** contains: some key is definitely absent. verify: the file is damaged. */
    static final int NEGATIVE = 1;
    /** A usage error, bad input, a damaged or foreign file outside verify, or an I/O error. */
    static final int ERROR = 2;
    /**
     * Standard output was closed by its reader ({@code bloomstore contains ... | head}): what a shell
     * reports for a process ended by SIGPIPE (128 + 13), which is how Unix tools stop when their
     * reader goes away. The JVM ignores SIGPIPE, so bloomstore ends itself, quietly, with this status.
     */
    static final int OUTPUT_CLOSED = 141;

    private ExitCode() {
    }
}

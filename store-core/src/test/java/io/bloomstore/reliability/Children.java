package io.bloomstore.reliability;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * Conventions of the child JVMs of these tests (started with {@link io.bloomstore.testing.ChildJvm}):
 * how long the parent waits for them, and how they print.
 */
final class Children {
    /** Long enough for a cold JVM and Chronicle's first mapping on a loaded 2-core machine. */
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Exit status of a child whose parent has gone. */
    private static final int PARENT_GONE = 2;

    private Children() {
    }

    /**
     * Flushes a child's stdout, so the parent sees every line printed so far; exits the child if
     * stdout is closed, so a child whose parent has gone does not run on as an orphan.
     */
    static void flushOrExit(PrintWriter out) {
        if (out.checkError()) { // checkError flushes first
            System.exit(PARENT_GONE);
        }
    }
}

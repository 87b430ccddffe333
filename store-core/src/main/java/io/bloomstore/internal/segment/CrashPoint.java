package io.bloomstore.internal.segment;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Named points inside the multi-step updates of a file (a growth, a slot clear, a checkpoint) where a
 * test can have the JVM stop dead, as kill -9 would: {@code -Dbloomstore.test.halt-at=NAME} makes
 * {@link #reach} halt the process there (no shutdown hook, no finally block runs);
 * {@code -Dbloomstore.test.stop-at=NAME} has it stop there instead, as SIGSTOP (Ctrl-Z) would, until
 * it gets SIGCONT. Without the properties, each point costs two string comparisons per growth,
 * clear or run of pages a checkpoint writes, never per key.
 */
public final class CrashPoint {
    /** In a growth, after the new region is written but before it is forced and published. */
    static final String GROWTH = "growth";
    /** In a slot clear, with half of the slot's cells zeroed. */
    static final String CLEAR = "clear";
    /** In a checkpoint, after its first run of changed pages is written, before the rest and the first page. */
    public static final String CHECKPOINT = "checkpoint";
    /** The exit status of a halted JVM. */
    static final int HALT_STATUS = 86;
    private static final String HALT_AT = System.getProperty("bloomstore.test.halt-at", "");
    private static final String STOP_AT = System.getProperty("bloomstore.test.stop-at", "");

    private CrashPoint() {
    }

    /** Halts the JVM, or stops it until it is continued, if the test named {@code point}; else returns. */
    public static void reach(String point) {
        if (HALT_AT.equals(point)) {
            Runtime.getRuntime().halt(HALT_STATUS);
        }
        if (STOP_AT.equals(point)) {
            stopThisProcess();
        }
    }

    /** Sends this process SIGSTOP, through kill(1), and returns once it has been continued. */
    private static void stopThisProcess() {
        try {
            new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.bloomstore.tools;

import io.bloomstore.internal.cells.FileMapping;

/** Start-up tuning for a short-lived process such as the command line. */
public final class Startup {
    private Startup() {
    }

    /**
     * Starts the one-time initialisation of the memory library under every filter on a daemon
     * thread, so that a short-lived process overlaps it with its own start-up instead of paying it
     * at its first open. Optional: without it, the first open pays (tens of milliseconds, once per JVM).
     */
    public static void prepareInBackground() {
        FileMapping.initializeInBackground();
    }
}

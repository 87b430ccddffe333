package io.bloomstore.cli;

/** When long jobs draw a progress bar on stderr (--progress). */
enum ProgressMode {
    /** When stderr is a terminal (see {@link Terminals}). */
    AUTO,
    /** Always, e.g. to watch a job through a log file. */
    ALWAYS,
    /** Never. */
    NEVER;

    boolean shows(boolean stderrIsTerminal) {
        return this == ALWAYS || (this == AUTO && stderrIsTerminal);
    }
}

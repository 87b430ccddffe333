package io.bloomstore;

/** How a filter file is opened. */
public enum OpenMode {
    /** Queries only; the file is mapped read-only and may be read-only on disk. */
    READ_ONLY,
    /** Queries and updates, shared live with every other handle on the same file. */
    READ_WRITE
}

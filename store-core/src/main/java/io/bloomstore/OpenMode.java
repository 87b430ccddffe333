package io.bloomstore;

/** How a filter file is opened. */
public enum OpenMode {
    /** Queries only; the file is mapped read-only and may be read-only on disk. */
    READ_ONLY,
    /** Queries and updates, shared live with every other handle on the same file. */
    READ_WRITE,
    /**
     * Queries only, for a process that asks a few keys and ends (a command-line query): a fixed
     * filter's file is not mapped; each query reads the words of the key's probed cells from the
     * file, one positional read (a system call) per probe, so opening starts neither the mapping
     * nor the memory library under it. Accepted by {@link MembershipFilter#open}; a growing or
     * windowed file, which has no such reader, is opened there as {@link #READ_ONLY}, mapped.
     * {@link BloomFilter#open}, whose handle is a mapping, refuses it.
     *
     * <p>The trade-off: up to k system calls per query, where a mapped query reads memory, so past
     * a few dozen keys the mapped {@link #READ_ONLY} is far faster, and the saving is the start of
     * the mapping alone (docs/BENCHMARKS.md, "CLI start-up"). A query sees the adds of other
     * handles and processes as the page cache holds them, as a mapping does. The handle supports
     * the queries of {@link MembershipFilter}, not the operations of a {@link BloomFilter}. A file
     * truncated after it was opened makes a query throw an {@link java.io.UncheckedIOException}
     * whose cause is an {@link InvalidFilterFileException}; an interrupt of a querying thread closes
     * the file, as it does any {@link java.nio.channels.FileChannel}.
     */
    READ_ONLY_UNMAPPED
}

package io.bloomstore.tools;

import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.internal.access.ToolsAccess;
import java.io.IOException;
import java.nio.file.Path;

/** A filter file opened for a few queries by a process that asks them and ends, such as a command-line query. */
public final class UnmappedQueries {
    private UnmappedQueries() {
    }

    /**
     * Opens the filter file at {@code path} for queries only, as {@link MembershipFilter#open(Path, OpenMode)}
     * with {@link OpenMode#READ_ONLY} does, except that a fixed filter's file is not mapped: each
     * query reads the words of the key's probed cells from the file, one positional read (a system
     * call) per probe, so opening starts neither the mapping nor the memory library under it. A
     * growing or windowed file, which has no such reader, is opened mapped, as that open does.
     *
     * <p>The trade-off: up to k system calls per query, where a mapped query reads memory, so past
     * a few dozen keys the mapped open is far faster, and the saving is the start of the mapping
     * alone (docs/BENCHMARKS.md, "CLI start-up"). A query sees the adds of other handles and
     * processes as the page cache holds them, as a mapping does. The management questions
     * (statistics, verify) map the file through the same descriptor when first asked. A file
     * truncated after it was opened makes a query throw an {@link java.io.UncheckedIOException}
     * whose cause is an {@link InvalidFilterFileException}; an interrupt of a querying thread closes
     * the file, as it does any {@link java.nio.channels.FileChannel}.
     *
     * @param path the filter file
     * @return the open filter, of the file's kind; close it when done
     * @throws InvalidFilterFileException if the file is damaged or not a filter
     * @throws IOException if the file cannot be read
     */
    public static MembershipFilter open(Path path) throws IOException {
        return ToolsAccess.openUnmapped(path, MembershipFilter.class);
    }
}

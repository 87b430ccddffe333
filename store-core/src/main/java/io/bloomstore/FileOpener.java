package io.bloomstore;

import io.bloomstore.internal.access.ToolsAccess;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.map.FileKinds;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Opens a file of any kind on one descriptor: what {@link StoredFile#open} and
 * {@link MembershipFilter#open} share, and the open for a few queries that reads a fixed filter
 * without mapping it ({@link UnmappedFilter}), which only {@code io.bloomstore.tools} reaches
 * (through {@link ToolsAccess}, published here). The kind is read through the descriptor that the
 * opener of that kind then checks and maps, so a file renamed over the path meanwhile is either
 * wholly the one opened or not opened at all (docs/RELIABILITY.md, "Inputs bound to one descriptor").
 */
final class FileOpener {
    static {
        ToolsAccess.publishUnmappedOpener(new ForQueries());
    }

    private FileOpener() {
    }

    /**
     * The file as a filter; a Bloomier map is refused, naming the verb that reads it. With
     * {@code unmapped} (read-only) a fixed filter is read with positional reads instead of mapped.
     */
    static MembershipFilter filter(Path path, OpenMode mode, Clock clock, boolean unmapped) throws IOException {
        FileChannel channel = channel(path, mode);
        return filter(path, channel, kindOf(channel), mode, clock, unmapped);
    }

    /** The file as whatever kind it is, opened read-only: a fixed filter whose cells hold values as a {@link ValuedFilter}. */
    static StoredFile any(Path path, Clock clock) throws IOException {
        FileChannel channel = channel(path, OpenMode.READ_ONLY);
        FilterKind kind = kindOf(channel);
        if (kind == FilterKind.MAP) {
            return BloomierMap.open(path, channel);
        }
        MembershipFilter filter = filter(path, channel, kind, OpenMode.READ_ONLY, clock, false);
        return filter.asFixed().<StoredFile>flatMap(ValuedFilter::of).orElse(filter);
    }

    private static FileChannel channel(Path path, OpenMode mode) throws IOException {
        return CheckedFile.openChannel(path, mode == OpenMode.READ_ONLY);
    }

    /** The kind of the file on {@code channel}, which is closed if it cannot be read. */
    private static FilterKind kindOf(FileChannel channel) throws IOException {
        try {
            return FileKinds.of(channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Opens the filter of {@code kind} on {@code channel}, which its opener takes over (and closes if the file fails its checks). */
    private static MembershipFilter filter(Path path, FileChannel channel, FilterKind kind, OpenMode mode, Clock clock,
            boolean unmapped) throws IOException {
        return switch (kind) {
            case MAP -> {
                channel.close();
                throw notAFilter(path);
            }
            case WINDOWED -> WindowedBloomFilter.open(path, channel, mode, clock);
            case GROWING -> GrowingBloomFilter.open(path, channel, mode);
            case FIXED -> unmapped
                    ? UnmappedFilter.open(path, channel) // checks and reports as BloomFilter.open does
                    : BloomFilter.open(path, channel, mode); // checks and reports everything else
        };
    }

    /** The refusal of a Bloomier map where a filter is needed: a map answers values, not membership. */
    private static InvalidFilterFileException notAFilter(Path path) {
        return new InvalidFilterFileException(path, InvalidFilterFileException.Problem.UNSUPPORTED_VERSION,
                "is a Bloomier map (format version 5), not a filter: read it with 'bloomstore get' (BloomierMap in Java)");
    }

    /** The open of {@code io.bloomstore.tools.UnmappedQueries}: read-only, a windowed filter on the system clock. */
    private static final class ForQueries implements ToolsAccess.Opener {
        @Override
        public MembershipFilter open(Path path) throws IOException {
            return filter(path, OpenMode.READ_ONLY, Clock.systemUTC(), true);
        }
    }
}

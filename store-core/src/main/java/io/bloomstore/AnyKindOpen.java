package io.bloomstore;

import io.bloomstore.internal.access.ToolsAccess;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.map.FileKinds;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Opening a filter file of any kind through one descriptor: {@link MembershipFilter#open}, and the
 * open for a few queries that reads a fixed filter without mapping it ({@link UnmappedFilter}),
 * which only {@code io.bloomstore.tools} reaches (through {@link ToolsAccess}, published here).
 */
final class AnyKindOpen {
    static {
        ToolsAccess.publishUnmappedOpener(new ForQueries());
    }

    private AnyKindOpen() {
    }

    /**
     * Opens the file at {@code path}, whatever its kind, as {@link MembershipFilter#open(Path, OpenMode, Clock)}
     * says; with {@code unmapped} (read-only) a fixed filter is read with positional reads instead of mapped.
     */
    static MembershipFilter open(Path path, OpenMode mode, Clock clock, boolean unmapped) throws IOException {
        FileChannel channel = CheckedFile.openChannel(path, mode == OpenMode.READ_ONLY);
        FilterKind kind;
        try {
            kind = FileKinds.of(channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        // each opener takes the channel over, and closes it if the file fails its checks
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
            return AnyKindOpen.open(path, OpenMode.READ_ONLY, Clock.systemUTC(), true);
        }
    }
}

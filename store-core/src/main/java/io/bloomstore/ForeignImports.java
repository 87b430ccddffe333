package io.bloomstore;

import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.FilterHeader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;

/** The one way an imported filter becomes a file: {@link GuavaFilters} and {@link SparkSketches} share it. */
final class ForeignImports {
    private ForeignImports() {
    }

    /**
     * Writes the filter {@code stream} announces into a new file at {@code out}, sealed, and
     * publishes it atomically: a stream that ends early leaves nothing behind.
     */
    static FilterFileInfo publish(ForeignStream stream, Path out, CreateOption... options) throws IOException {
        Set<CreateOption> set = options.length == 0 ? Set.of() : Set.of(options);
        FilterHeader header = FilterHeader.newFile(stream.spec(), System.currentTimeMillis(), false);
        FilterFiles.publishFilter(out, set.contains(CreateOption.REPLACE_EXISTING), header, false, (channel, temporary) -> {
            stream.copyWords(channel);
            Merge.sealInPlace(temporary);
        });
        return FilterFileInfo.of(header);
    }
}

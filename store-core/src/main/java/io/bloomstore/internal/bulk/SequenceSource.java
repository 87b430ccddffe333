package io.bloomstore.internal.bulk;

import java.io.IOException;
import java.util.List;

/** Several key sources read one after the other (the CLI's arguments first, then --from). */
public final class SequenceSource implements BatchSource {
    private final List<? extends BatchSource> sources;
    private int current;

    public SequenceSource(List<? extends BatchSource> sources) {
        this.sources = sources;
    }

    @Override
    public boolean nextBatch(KeyBatch batch) throws IOException {
        for (; current < sources.size(); current++) {
            if (sources.get(current).nextBatch(batch)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long bytesRead() {
        long total = 0;
        for (BatchSource source : sources) {
            total += source.bytesRead();
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (BatchSource source : sources) {
            try {
                source.close();
            } catch (IOException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}

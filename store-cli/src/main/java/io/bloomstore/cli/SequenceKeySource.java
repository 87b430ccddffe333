package io.bloomstore.cli;

import java.io.IOException;
import java.util.List;

/** Several key sources read one after the other (arguments first, then --from). */
final class SequenceKeySource implements KeySource {
    private final List<KeySource> sources;
    private int current;

    SequenceKeySource(List<KeySource> sources) {
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
        for (KeySource source : sources) {
            total += source.bytesRead();
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (KeySource source : sources) {
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

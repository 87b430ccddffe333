package io.bloomstore.internal.bulk;

import java.io.ByteArrayOutputStream;
import java.util.List;

/** Keys given one by one, each its exact bytes (the CLI's arguments): no line splitting. */
public final class ListedKeys implements BatchSource {
    private final byte[] bytes;
    private final int[] ends;
    private int next;

    public ListedKeys(List<byte[]> keys) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        ends = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            all.writeBytes(keys.get(i));
            ends[i] = all.size();
        }
        bytes = all.toByteArray();
    }

    @Override
    public boolean nextBatch(KeyBatch batch) {
        batch.clear(bytes);
        for (; next < ends.length && !batch.isFull(); next++) {
            int start = next == 0 ? 0 : ends[next - 1];
            batch.add(start, ends[next] - start);
        }
        return batch.size > 0;
    }

    @Override
    public long bytesRead() {
        return 0;
    }

    @Override
    public void close() {
    }
}

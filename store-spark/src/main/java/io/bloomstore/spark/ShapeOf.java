package io.bloomstore.spark;

import io.bloomstore.BloomSpec;
import io.bloomstore.HashAlgorithm;
import io.bloomstore.Layout;
import java.io.Serializable;

/** A {@link BloomSpec} in a form Spark can ship to executors with a task. */
record ShapeOf(long cells, int hashes, int counterBits, Layout layout, HashAlgorithm hashAlgorithm, long seed,
        long expectedKeys, double targetFpp) implements Serializable {

    static ShapeOf of(BloomSpec spec) {
        return new ShapeOf(spec.cells(), spec.hashes(), spec.counterBits(), spec.layout(), spec.hashAlgorithm(),
                spec.seed(), spec.expectedKeys(), spec.targetFpp());
    }

    BloomSpec spec() {
        BloomSpec.Builder builder = BloomSpec.builder().cells(cells).hashes(hashes).counterBits(counterBits)
                .layout(layout).hashAlgorithm(hashAlgorithm).seed(seed);
        if (expectedKeys > 0) {
            builder.expectedKeys(expectedKeys);
        }
        if (targetFpp > 0) {
            builder.fpp(targetFpp);
        }
        return builder.build();
    }
}

package io.bloomstore.spark;

/**
 * How a build writes its file, beyond the filter's shape (which the {@link io.bloomstore.BloomSpec}
 * holds: layout, counting cells, seed).
 *
 * @param replaceExisting whether an existing file at the output path is replaced (else the build
 *     refuses to start)
 * @param slices the most slices (reduce tasks) a blocked build cuts the filter into; 0 for the
 *     default, the larger of Spark's default parallelism and one slice per started 64 MiB of cells
 */
public record BuildOptions(boolean replaceExisting, int slices) {
    /** A slice's cells when the count is left to the build: a buffer an executor holds easily. */
    static final long DEFAULT_SLICE_BYTES = 64L << 20;

    public BuildOptions {
        if (slices < 0) {
            throw new IllegalArgumentException("slices must be 0 (the default) or more, got " + slices);
        }
    }

    /** Never replace a file; slices by the default. */
    public static BuildOptions defaults() {
        return new BuildOptions(false, 0);
    }

    public BuildOptions withReplaceExisting(boolean replace) {
        return new BuildOptions(replace, slices);
    }

    public BuildOptions withSlices(int count) {
        return new BuildOptions(replaceExisting, count);
    }
}

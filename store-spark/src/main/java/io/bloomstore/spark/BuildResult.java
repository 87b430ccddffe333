package io.bloomstore.spark;

import io.bloomstore.BloomSpec;

/**
 * What a build wrote.
 *
 * @param path the filter file, as given
 * @param spec its shape
 * @param keys the non-null keys read (every row's, repeats included)
 * @param nullKeys the rows whose key was null: skipped, since a null is no key (SQL's IN never finds it either)
 * @param tasks the tasks that filled the cells: slices (blocked) or input partitions (standard)
 */
public record BuildResult(String path, BloomSpec spec, long keys, long nullKeys, int tasks) {
}

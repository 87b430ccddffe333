/**
 * Reading keys in bulk: lines split eight bytes at a time into batches of slices (no copy, no
 * String per key), hashed a batch at a time, and added on adder threads or queried with the
 * filter's batch calls. The engine of {@link io.bloomstore.KeySource} and
 * {@link io.bloomstore.FilterBuilder}. Depends on {@link io.bloomstore.KeyHasher} only: the filter
 * and the callbacks of {@link io.bloomstore.KeySource} come in as method references
 * ({@code filter::addHashes}, {@code each::accept}), so no class that uses this package is named here.
 */
package io.bloomstore.internal.bulk;

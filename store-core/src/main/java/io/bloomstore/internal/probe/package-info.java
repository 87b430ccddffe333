/**
 * Where a key's k cells lie for each layout ({@link io.bloomstore.internal.probe.Probing}), the
 * per-key loops that probe them, one per operation ({@link io.bloomstore.internal.probe.CellProbes}),
 * and the batch engine that overlaps many keys' cache misses
 * ({@link io.bloomstore.internal.probe.BatchProber}, whose comment is the cache-line argument).
 * Depends on the API's value types, {@code internal.cells} and {@code internal.hashing}.
 */
package io.bloomstore.internal.probe;

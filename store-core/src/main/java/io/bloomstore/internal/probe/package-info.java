/**
 * Where a key's k cells lie for each layout ({@link io.bloomstore.internal.probe.Probing}), the
 * per-key loops that probe them, one per operation ({@link io.bloomstore.internal.probe.CellQueries}
 * for the queries, on cells in memory or read from the file; {@link io.bloomstore.internal.probe.CellProbes}
 * adds the updates of cells in memory, and for 1-bit cells hands both to a loop each layout writes
 * with its constants in locals), and the batch engine that overlaps many keys' cache misses, for a
 * fixed filter's cells (and for a segmented file's batch adds across its regions)
 * ({@link io.bloomstore.internal.probe.BatchProber}, whose comment is the cache-line argument), and
 * the probing of a blocked filter's keys into one slice of its blocks
 * ({@link io.bloomstore.internal.probe.SliceProbes}, for builds split across machines), and one
 * key asked of a ring's slots in lockstep ({@link io.bloomstore.internal.probe.LockstepQueries}).
 * What a filter's fill says about it, by its layout's formula
 * ({@link io.bloomstore.internal.probe.FillEstimates}).
 * Depends on the API's value types, {@code internal.cells}, {@code internal.hashing} and
 * {@code internal.math}.
 */
package io.bloomstore.internal.probe;

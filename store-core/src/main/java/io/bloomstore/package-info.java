/**
 * bloomstore's public API: everything a user of the library needs, and nothing else.
 *
 * <ul>
 *   <li>{@link io.bloomstore.BloomFilter} — a filter living in a memory-mapped file: create, open,
 *       add, query, count, remove, sync, seal, statistics;
 *   <li>{@link io.bloomstore.GrowingBloomFilter} (with {@link io.bloomstore.GrowingSpec}) and
 *       {@link io.bloomstore.WindowedBloomFilter} (with {@link io.bloomstore.WindowSpec}) — filters
 *       that never fill: a chain of segments that grows, a ring of time slots that forgets; their
 *       {@link io.bloomstore.SegmentedStats} of {@link io.bloomstore.RegionStats}, and the
 *       {@link io.bloomstore.FilterFullException} of a chain that may not grow;
 *   <li>{@link io.bloomstore.MembershipFilter} — add and query, whatever the kind of file;
 *       {@link io.bloomstore.CountingFilter} — remove and count, in a filter of counters;
 *   <li>{@link io.bloomstore.BloomSpec} with {@link io.bloomstore.Layout} and
 *       {@link io.bloomstore.HashAlgorithm} — the immutable shape of a filter and the sizing math;
 *   <li>{@link io.bloomstore.OpenMode}, {@link io.bloomstore.CreateOption} — how a file is opened or made;
 *   <li>{@link io.bloomstore.FillStats} — how full a filter file is ({@link io.bloomstore.CellArrayStats}
 *       of a fixed filter's one cell array); {@link io.bloomstore.FilterFileInfo}
 *       — what its file's header says; {@link io.bloomstore.CellsCheck} — what a check of its
 *       cells found;
 *   <li>{@link io.bloomstore.KeySource} — the keys of a file, stream or channel (one per line), added
 *       or queried in bulk at the speed of {@code bloomstore build}; {@link io.bloomstore.FilterBuilder}
 *       — a new, sized and sealed filter file from them, published atomically;
 *   <li>{@link io.bloomstore.InvalidFilterFileException} — a file that is damaged, foreign or of
 *       another shape, with the {@link io.bloomstore.InvalidFilterFileException.Problem} for programs;
 *   <li>{@link io.bloomstore.Merge} / {@link io.bloomstore.MergeOp}, {@link io.bloomstore.Pack},
 *       {@link io.bloomstore.SetEstimates} — whole-filter operations; {@link io.bloomstore.Checkpoint}
 *       — a durable copy of a live filter (one kept in {@code /dev/shm}), brought up to date by the
 *       pages that changed;
 *   <li>{@link io.bloomstore.KeyHasher} — the canonical key hash, for callers that hash keys themselves.
 * </ul>
 *
 * <p>The packages under {@code io.bloomstore.internal} are the implementation. They are public
 * only because Java packages cannot share package-private members; they are not part of the API,
 * may change in any release, and never appear in a signature of this package. The store-cli module
 * uses this package alone, with {@code io.bloomstore.tools}: what only bloomstore's own command
 * line and server need (start-up tuning, display helpers, file forensics), internal and unsupported
 * as well (a test checks the compiled classes of each module against these layers).
 *
 * <p>Why no {@code module-info.java}: the library's users put it on the class path, where a module
 * descriptor is ignored, and its dependencies (Chronicle, zero-allocation-hashing) are automatic
 * modules that need {@code --add-opens ...=ALL-UNNAMED} as the unnamed module; on the module path
 * those flags would have to name Chronicle's module instead, and every user's command line with it.
 * Clearly named internal packages, documented here and checked by a test, draw the same line
 * without that cost.
 */
package io.bloomstore;

/**
 * bloomstore's public API: everything a user of the library needs, and nothing else. Every public
 * type of the package is introduced below, by what a user does with it ({@code PublicApiTest} fails
 * when one is missing here, so a type that cannot say what it is for does not join the surface).
 *
 * <p><b>A filter in a file</b>: a dedup index that survives restarts and crashes, shared live by
 * every process that maps it.
 * <ul>
 *   <li>{@link io.bloomstore.BloomFilter} — a filter living in a memory-mapped file: create, open,
 *       add, query, sync, seal, statistics; with counters, also {@link io.bloomstore.CountingFilter}
 *       (remove and count). {@link io.bloomstore.StableSpec} shapes a stable filter, one that
 *       forgets old keys in fixed memory ({@link io.bloomstore.BloomFilter#createStable});
 *   <li>{@link io.bloomstore.BloomSpec} with {@link io.bloomstore.Layout} and
 *       {@link io.bloomstore.HashAlgorithm} — the immutable shape of a filter and the sizing math;
 *   <li>{@link io.bloomstore.OpenMode}, {@link io.bloomstore.CreateOption} — how a file is opened or made;
 *   <li>{@link io.bloomstore.KeyHasher} — the canonical key hash, for callers that hash keys themselves.
 * </ul>
 *
 * <p><b>Filters that never fill</b>: an endless stream of ids.
 * <ul>
 *   <li>{@link io.bloomstore.GrowingBloomFilter} (with {@link io.bloomstore.GrowingSpec}) — a chain
 *       of segments that grows, the rate of a query staying under P; the
 *       {@link io.bloomstore.FilterFullException} of a chain that may not grow;
 *   <li>{@link io.bloomstore.WindowedBloomFilter} (with {@link io.bloomstore.WindowSpec}) — a ring of
 *       time slots that forgets a key a window after it came;
 *   <li>{@link io.bloomstore.FilterBusyException} — an add of either refused while another process
 *       that holds their step lock (a growth or a rotation) is stopped.
 * </ul>
 *
 * <p><b>A value per key</b>.
 * <ul>
 *   <li>{@link io.bloomstore.ValuedFilter} — a filter whose cells hold a value per key, the largest
 *       or the smallest put ({@link io.bloomstore.ValuedFilter.Keep}), updated live like a {@code BloomFilter};
 *   <li>{@link io.bloomstore.BloomierMap} — a static map of keys to small values, built once, read-only.
 * </ul>
 *
 * <p><b>Any kind of file, one contract</b>: what tools that manage files of every kind ask.
 * <ul>
 *   <li>{@link io.bloomstore.StoredFile} — any open bloomstore file, with the questions every kind
 *       answers; {@link io.bloomstore.MembershipFilter} — add and query, whatever the kind of filter
 *       (fixed, growing, windowed), named by {@link io.bloomstore.FilterKind};
 *   <li>{@link io.bloomstore.FileShape} — what a file is, from its headers: a filter's
 *       {@link io.bloomstore.FilterShape} (a record per kind), a map's {@link io.bloomstore.MapShape};
 *       {@link io.bloomstore.FilterFileInfo} — what a fixed filter's header says;
 *   <li>{@link io.bloomstore.FillStats} — how full a file is, from a scan of its cells:
 *       {@link io.bloomstore.CellArrayStats} of a fixed filter's one array,
 *       {@link io.bloomstore.SegmentedStats} of a file of regions, each one's
 *       {@link io.bloomstore.RegionStats};
 *   <li>{@link io.bloomstore.CellsCheck} — what a check of its cells found;
 *       {@link io.bloomstore.InvalidFilterFileException} — a file that is damaged, foreign or of
 *       another shape, with the {@link io.bloomstore.InvalidFilterFileException.Problem} for programs.
 * </ul>
 *
 * <p><b>Many keys at once</b>: the command line's pipelines, from Java.
 * <ul>
 *   <li>{@link io.bloomstore.KeySource} — the keys of a file, stream or channel (one per line), added
 *       or queried in bulk at the speed of {@code bloomstore build};
 *   <li>{@link io.bloomstore.FilterBuilder} — a new, sized and sealed filter file from them,
 *       published atomically; {@link io.bloomstore.SlicedFilter} — one built in slices, by many
 *       threads, processes or machines (Spark's build).
 * </ul>
 *
 * <p><b>Whole files</b>.
 * <ul>
 *   <li>{@link io.bloomstore.Merge} / {@link io.bloomstore.MergeOp} — OR and AND of compatible
 *       filters; {@link io.bloomstore.Pack} — a file as one checksummed LZ4 frame, for shipping and
 *       backup; a merge and an unpack report the file they wrote as a
 *       {@link io.bloomstore.FilterFileSummary};
 *   <li>{@link io.bloomstore.SetEstimates} — sizes of two key sets, their union and intersection,
 *       from their filters; {@link io.bloomstore.Checkpoint} — a durable copy of a live filter (one
 *       kept in {@code /dev/shm}), brought up to date by the pages that changed.
 * </ul>
 *
 * <p><b>Other libraries' filters</b>, mapped instead of read onto the heap.
 * <ul>
 *   <li>{@link io.bloomstore.ParquetFilters} with {@link io.bloomstore.ParquetType} — Apache Parquet's
 *       column filters, in and out;
 *   <li>{@link io.bloomstore.GuavaFilters}, {@link io.bloomstore.SparkSketches} — Guava's and Spark's
 *       serialized Bloom filters, in.
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

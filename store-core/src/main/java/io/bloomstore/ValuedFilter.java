package io.bloomstore;

import io.bloomstore.internal.format.CellRule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * A filter that holds a value per key: cells of a lattice instead of bits (Boldi &amp; Vigna's
 * compact approximators). With the <b>max</b> rule, adding (key, v) raises each of the key's k
 * cells to max(cell, v) and a read is the minimum of its k cells: never below the largest value
 * added for the key, and exactly it with high probability. With the <b>min</b> rule, the order is
 * reversed and the file keeps, for each key, the smallest value seen: the hop distance of an
 * attenuated Bloom filter (Rhea &amp; Kubiatowicz), the earliest time, the best priority. A spatial
 * Bloom filter (Palmieri, Calderoni &amp; Maio) is the max rule with set labels as values, added in
 * priority order; a read says which set a key belongs to.
 *
 * <p>Values are W-bit ({@link #valueBits()}), held as value + 1 so that an empty cell means
 * "absent"; cells are the narrowest of 2, 4, 8, 16, 32 bits above W. Every change is a lock-free
 * compare-and-set on one mapped word, shared by every thread and process that has the file open,
 * as for any {@link BloomFilter}, which {@link #filter()} is: seal, sync, stats, verify, pack and
 * merge (the cellwise join, {@link Merge}) work on it. Format version 4 (docs/FORMAT.md, "Cell rules").
 *
 * <p>As a {@link StoredFile} it answers the management questions of the filter under it (its kind is
 * {@link FilterKind#FIXED}, its shape a {@link FilterShape.Fixed}); {@link StoredFile#open} opens a
 * valued file as this type, and {@link #match} applies the {@code valued} function to it.
 *
 * <pre>{@code
 * try (ValuedFilter shards = ValuedFilter.create(Path.of("labels.bloom"), 1_000_000, 0.001, 2, Keep.MAX)) {
 *     shards.put("user-17", 3);
 *     shards.get("user-17");    // OptionalLong[3] (or, rarely, more); empty for a key never put
 * }
 * }</pre>
 */
public final class ValuedFilter implements StoredFile {
    private final BloomFilter filter;
    private final CellRule rule;
    private final KeyHasher hasher;

    /** Which of the values put for a key a read gives: the file's cell rule, chosen when it is created. */
    public enum Keep {
        /** The largest value put (max rule). */
        MAX,
        /** The smallest value put (min rule). */
        MIN
    }

    private ValuedFilter(BloomFilter filter) {
        this.filter = filter;
        this.rule = filter.header().rule();
        this.hasher = filter.hasher();
    }

    /**
     * Creates a valued filter file, atomically, sized so that a key never put reads a value with
     * probability {@code fpp} after {@code expectedKeys} keys, and opens it read-write.
     *
     * @param path the file to create; its directory must exist
     * @param expectedKeys n, the distinct keys the file is sized for
     * @param fpp the rate at which a key never put reads a value
     * @param valueBits W, 1 to 31: values 0 to 2^W - 1
     * @param keep {@link Keep#MAX} for the max rule (a read is the largest value put), {@link Keep#MIN} for the min rule
     * @param options as {@link BloomFilter#create}
     * @return the new filter, open read-write
     * @throws IOException as {@link BloomFilter#create}
     * @throws IllegalArgumentException if W is not 1 to 31, or n and p size no filter
     */
    public static ValuedFilter create(Path path, long expectedKeys, double fpp, int valueBits, Keep keep,
            CreateOption... options) throws IOException {
        CellRule rule = CellRule.valued(keep == Keep.MAX, valueBits);
        return new ValuedFilter(BloomFilter.create(path, spec(expectedKeys, fpp, valueBits), rule, options));
    }

    /**
     * The shape {@link #create} gives a valued filter: the plain filter's m and k for n keys at p,
     * in cells of the narrowest width above W bits.
     *
     * @param expectedKeys n
     * @param fpp the rate at which a key never put reads a value
     * @param valueBits W, 1 to 31
     * @return the shape, whose {@link BloomSpec#cellBytes()} the file's cells take
     * @throws IllegalArgumentException if W is not 1 to 31, or n and p size no filter
     */
    public static BloomSpec spec(long expectedKeys, double fpp, int valueBits) {
        return BloomSpec.builder().expectedKeys(expectedKeys).fpp(fpp).counterBits(CellRule.cellBitsFor(valueBits)).build();
    }

    /**
     * Opens an existing valued filter file.
     *
     * @param path the file
     * @param mode {@link OpenMode#READ_ONLY} or {@link OpenMode#READ_WRITE}
     * @return the filter; close it when done
     * @throws InvalidFilterFileException as {@link BloomFilter#open}, and with
     *     {@link InvalidFilterFileException.Problem#INCOMPATIBLE} if the file holds no values
     * @throws IOException as {@link BloomFilter#open}
     */
    public static ValuedFilter open(Path path, OpenMode mode) throws IOException {
        BloomFilter filter = BloomFilter.open(path, mode);
        if (!filter.header().rule().isValued()) {
            filter.close();
            throw new InvalidFilterFileException(path, InvalidFilterFileException.Problem.INCOMPATIBLE,
                    "is a " + filter.header().rule().label() + " filter and holds no values; create one with --values max|min");
        }
        return new ValuedFilter(filter);
    }

    /**
     * The values of a valued filter already open as {@code filter}: for a caller that reads its
     * header and cells through that one handle. Closing the result closes {@code filter}.
     *
     * @param filter an open filter
     * @return its values, or empty if the file holds none
     */
    public static java.util.Optional<ValuedFilter> of(BloomFilter filter) {
        return filter.header().rule().isValued() ? java.util.Optional.of(new ValuedFilter(filter)) : java.util.Optional.empty();
    }

    /**
     * Adds {@code value} for {@code key}: each of its cells joins it (max or min).
     *
     * @param key the key, by its canonical bytes ({@link KeyHasher})
     * @param value 0 to 2^W - 1
     * @return whether a cell changed: false when the file already read this value or a better one for the key
     * @throws IllegalArgumentException if the value does not fit W bits
     */
    public boolean put(CharSequence key, long value) {
        return putHash(hasher.hash(key), value);
    }

    /**
     * {@link #put(CharSequence, long)} of a byte-string key.
     *
     * @param key the key
     * @param value 0 to 2^W - 1
     * @return as {@link #put(CharSequence, long)}
     */
    public boolean put(byte[] key, long value) {
        return putHash(hasher.hash(key), value);
    }

    /**
     * {@link #put(CharSequence, long)} of a long key.
     *
     * @param key the key
     * @param value 0 to 2^W - 1
     * @return as {@link #put(CharSequence, long)}
     */
    public boolean put(long key, long value) {
        return putHash(hasher.hash(key), value);
    }

    /**
     * {@link #put(CharSequence, long)} of a key hashed by {@link #hasher()}.
     *
     * @param hash the key's hash
     * @param value 0 to 2^W - 1
     * @return as {@link #put(CharSequence, long)}
     */
    public boolean putHash(long hash, long value) {
        if (value < 0 || value > maxValue()) {
            throw new IllegalArgumentException("value " + value + " does not fit " + rule.valueBits()
                    + " value bits (0 to " + maxValue() + "); create the file with more --value-bits");
        }
        if (filter.isReadOnly()) {
            throw new IllegalStateException(filter.path() + " is open read-only; open it READ_WRITE to change it");
        }
        boolean changed = filter.rules().put(hash, value);
        if (changed) {
            filter.countInsertion();
        }
        return changed;
    }

    /**
     * The key's value: the minimum (max rule) or maximum (min rule) of its cells. Never below
     * (max rule; above, min rule) the value the key holds; that value with high probability.
     *
     * @param key the key
     * @return the value, or empty if a cell is empty: the key was never put (certain)
     */
    public OptionalLong get(CharSequence key) {
        return getHash(hasher.hash(key));
    }

    /**
     * {@link #get(CharSequence)} of a byte-string key.
     *
     * @param key the key
     * @return as {@link #get(CharSequence)}
     */
    public OptionalLong get(byte[] key) {
        return getHash(hasher.hash(key));
    }

    /**
     * {@link #get(CharSequence)} of a long key.
     *
     * @param key the key
     * @return as {@link #get(CharSequence)}
     */
    public OptionalLong get(long key) {
        return getHash(hasher.hash(key));
    }

    /**
     * {@link #get(CharSequence)} of a key hashed by {@link #hasher()}.
     *
     * @param hash the key's hash
     * @return as {@link #get(CharSequence)}
     */
    public OptionalLong getHash(long hash) {
        long value = filter.rules().get(hash);
        return value < 0 ? OptionalLong.empty() : OptionalLong.of(value);
    }

    /**
     * Per value v held in some cell, the probability that a key holding v reads another value:
     * a larger one (max rule: all k of its cells were raised further by other keys) or a smaller
     * one (min rule), estimated from the cells as (fraction of cells beyond v)^k: the "error per
     * set" of a spatial Bloom filter. One pass over the cells.
     *
     * @return value to probability, in value order; empty for an empty filter
     */
    public SortedMap<Long, Double> errorRates() {
        long m = filter.spec().cells();
        var cells = filter.cells();
        TreeMap<Long, Long> histogram = new TreeMap<>();
        for (long i = 0; i < m; i++) {
            long cell = cells.getVolatile(i);
            if (cell != 0) {
                histogram.merge(cell - 1, 1L, Long::sum);
            }
        }
        int k = filter.spec().hashes();
        TreeMap<Long, Double> rates = new TreeMap<>();
        boolean max = rule.kind() == CellRule.Kind.MAX;
        long beyond = 0;
        var order = max ? histogram.descendingMap() : histogram;
        for (var entry : order.entrySet()) {
            rates.put(entry.getKey(), StrictMath.pow((double) beyond / m, k));
            beyond += entry.getValue();
        }
        return Collections.unmodifiableSortedMap(rates);
    }

    /**
     * W, the value bits.
     *
     * @return 1 to 31
     */
    public int valueBits() {
        return rule.valueBits();
    }

    /**
     * The largest value, 2^W - 1.
     *
     * @return the largest value a key may hold
     */
    public long maxValue() {
        return (1L << rule.valueBits()) - 1;
    }

    /**
     * Whether reads keep the largest value put for a key (max rule) or the smallest (min rule).
     *
     * @return true for the max rule
     */
    public boolean keepsMax() {
        return rule.kind() == CellRule.Kind.MAX;
    }

    /**
     * How keys are hashed, for {@link #putHash} and {@link #getHash}.
     *
     * @return the file's hasher
     */
    public KeyHasher hasher() {
        return hasher;
    }

    /**
     * The file under the values: its statistics, seal, sync and checks.
     *
     * @return the filter, whose plain adds this file refuses
     */
    public BloomFilter filter() {
        return filter;
    }

    @Override
    public Path path() {
        return filter.path();
    }

    /** {@inheritDoc} Here: {@link FilterKind#FIXED}, the file's layout of one cell array. */
    @Override
    public FilterKind kind() {
        return filter.kind();
    }

    @Override
    public long fileBytes() {
        return filter.fileBytes();
    }

    @Override
    public FilterShape shape() {
        return filter.shape();
    }

    @Override
    public CellsCheck verify() throws IOException {
        return filter.verify();
    }

    @Override
    public CellsCheck verify(LongConsumer bytesRead) throws IOException {
        return filter.verify(bytesRead);
    }

    /** {@inheritDoc} Here: {@code valued}, applied to this valued filter. */
    @Override
    public <R, X extends Exception> R match(KindFunction<? super MembershipFilter, ? extends R, X> filter,
            KindFunction<? super ValuedFilter, ? extends R, X> valued, KindFunction<? super BloomierMap, ? extends R, X> map)
            throws X {
        return valued.apply(this);
    }

    @Override
    public void close() {
        filter.close();
    }

    @Override
    public String toString() {
        return "ValuedFilter[" + filter.path() + ", " + rule.label() + ", " + rule.valueBits() + " value bits]";
    }
}

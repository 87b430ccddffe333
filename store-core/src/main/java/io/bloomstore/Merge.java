package io.bloomstore;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.CounterLanes;
import io.bloomstore.internal.format.CellRule;
import io.bloomstore.internal.cells.MappingFaults;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.files.TemporaryFile;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.InvalidFilterFileException.Problem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * OR / AND of compatible filters (same m, k, w, layout, hash and seed), word by word.
 *
 * <p>Into a new file, the output is written sequentially through a buffer into a temporary, sealed
 * there, and only then published atomically, so no reader ever sees it incomplete or unsealed; in
 * place, each target word is updated with one compare-and-set, so handles that are adding to the
 * target at the same time lose nothing.
 */
public final class Merge {
    /** Words per step: 256 KiB per buffer, so the step's three buffers stay in the L2 cache. */
    private static final int CHUNK_WORDS = 1 << 15;

    private Merge() {
    }

    /**
     * Writes {@code op} of {@code inputs} (two or more) to a new file {@code out}, sealed (its cells
     * checksum recorded, as {@link BloomFilter#seal()} does) before it appears at {@code out}.
     *
     * <p>Each input is opened once, and its kind, header, shape and cells are all read through that
     * one descriptor: an input renamed over meanwhile is merged whole or refused, never checked as
     * one file and read as another (docs/RELIABILITY.md, "Inputs bound to one descriptor").
     *
     * <p>Growing or windowed inputs (all of one kind) combine region by region by OR, as
     * docs/FORMAT.md, "Merge", says; the result is a file of their kind, open to adds (not sealed).
     *
     * @param out the file to write; its directory must exist
     * @param inputs the filter files, at least two, all of one shape
     * @param op {@link MergeOp#OR} for the union, {@link MergeOp#AND} for (a filter containing) the intersection
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing {@code out}; without
     *     it an existing {@code out} fails the call with {@link java.nio.file.FileAlreadyExistsException}
     *     and is left untouched
     * @return what was written: the result's kind, length and, for fixed filters, its header
     * @throws InvalidFilterFileException with {@link Problem#INCOMPATIBLE}, naming the input and the
     *     field, if the inputs differ in kind or shape, or if AND is asked of growing or windowed
     *     inputs; no file is left behind
     * @throws IllegalStateException if a windowed input rotated while it was
     *     read; no file is left behind
     * @throws IllegalArgumentException if there are fewer than two inputs, or {@code options} hold
     *     {@link CreateOption#SPARSE} (every cell is written)
     */
    public static FilterFileSummary toNewFile(Path out, List<Path> inputs, MergeOp op, CreateOption... options)
            throws IOException {
        return toNewFile(out, inputs, op, CreateOption.replaceExisting("merge", options), null);
    }

    /**
     * {@link #toNewFile(Path, List, MergeOp, CreateOption...)}, telling {@code progress} how far it got.
     *
     * @param out the file to write; its directory must exist
     * @param inputs the filter files, at least two, all of one shape
     * @param op {@link MergeOp#OR} for the union, {@link MergeOp#AND} for (a filter containing) the intersection
     * @param progress called with the number of cell bytes written so far
     * @param options as {@link #toNewFile(Path, List, MergeOp, CreateOption...)} takes them
     * @return what was written, as {@link #toNewFile(Path, List, MergeOp, CreateOption...)} returns it
     * @throws IOException as {@link #toNewFile(Path, List, MergeOp, CreateOption...)} throws it
     */
    public static FilterFileSummary toNewFile(Path out, List<Path> inputs, MergeOp op, LongConsumer progress,
            CreateOption... options) throws IOException {
        return toNewFile(out, inputs, op, CreateOption.replaceExisting("merge", options), Objects.requireNonNull(progress, "progress"));
    }

    /** The merge of files; {@code progress} may be null. */
    private static FilterFileSummary toNewFile(Path out, List<Path> inputs, MergeOp op, boolean replace,
            LongConsumer progress) throws IOException {
        if (inputs.size() < 2) {
            throw new IllegalArgumentException("merge needs at least two inputs, got " + inputs.size());
        }
        List<MembershipFilter> sources = new ArrayList<>();
        try {
            for (Path input : inputs) {
                // each input is checked as it opens, before kinds are compared, so a damaged one is named as itself;
                // no clock is read: a merge takes each ring's slots as its file says
                sources.add(MembershipFilter.open(input, OpenMode.READ_ONLY));
            }
            return mergeOpen(out, sources, op, replace, progress);
        } finally {
            for (MembershipFilter source : sources) {
                source.close();
            }
        }
    }

    /**
     * Writes {@code op} of open filters (two or more, of one kind) to a new file {@code out}, as
     * {@link #toNewFile(Path, List, MergeOp, LongConsumer, CreateOption...)} does with the files it opens:
     * for a caller that reads the inputs further (their statistics, say) through the very handles
     * merged, not through files opened again by path. The caller closes them.
     *
     * @param out the file to write; its directory must exist
     * @param sources the open filters, at least two, all of one kind and shape; left open
     * @param op {@link MergeOp#OR} for the union, {@link MergeOp#AND} for (a filter containing) the intersection
     * @param progress called with the number of cell bytes written so far
     * @param options as {@link #toNewFile(Path, List, MergeOp, CreateOption...)} takes them
     * @return what was written, as {@link #toNewFile(Path, List, MergeOp, CreateOption...)} returns it
     * @throws InvalidFilterFileException as {@link #toNewFile(Path, List, MergeOp, CreateOption...)} throws it
     * @throws IOException if {@code out} cannot be written; no file is left behind
     * @throws IllegalArgumentException if there are fewer than two sources
     */
    public static FilterFileSummary toNewFileFrom(Path out, List<? extends MembershipFilter> sources, MergeOp op,
            LongConsumer progress, CreateOption... options) throws IOException {
        return mergeOpen(out, sources, op, CreateOption.replaceExisting("merge", options), Objects.requireNonNull(progress, "progress"));
    }

    /** The merge of open filters; {@code progress} may be null. */
    private static FilterFileSummary mergeOpen(Path out, List<? extends MembershipFilter> sources, MergeOp op,
            boolean replace, LongConsumer progress) throws IOException {
        if (sources.size() < 2) {
            throw new IllegalArgumentException("merge needs at least two inputs, got " + sources.size());
        }
        List<BloomFilter> fixed = sources.stream().flatMap(source -> source.asFixed().stream()).toList();
        if (fixed.size() < sources.size()) {
            return SegmentedMerge.toNewFile(out, List.copyOf(sources), op, replace, progress);
        }
        if (ParquetFilters.foldable(fixed, op)) {
            return ParquetFilters.mergeFolded(out, fixed, replace, progress);
        }
        BloomFilter first = fixed.get(0);
        for (BloomFilter source : fixed.subList(1, fixed.size())) {
            requireCompatible(first, source);
        }
        FilterHeader header = FilterHeader.newFile(first.spec(), first.header().rule(), System.currentTimeMillis(), false);
        // A merged file is a new file: a new identity, whatever its inputs' identities (or versions).
        // Every cell is written, so the result cannot be sparse: a full disk is not told to make it so.
        FilterFiles.publishFilter(out, replace, header, false, sealedContent(header, fixed, op, progress));
        return new FilterFileSummary(FilterKind.FIXED, 1, header.fileLength(), Optional.of(header.info()));
    }

    /**
     * What follows the header page in the merged file's temporary: {@code op} of the sources'
     * cells, chunk by chunk, then the seal, so the file is complete and sealed before it is published.
     */
    static FilterFiles.Content sealedContent(FilterHeader header, List<BloomFilter> sources, MergeOp op,
            LongConsumer progress) {
        return (channel, temporary) -> {
            writeCombined(channel, sources.stream().map(BloomFilter::cells).toList(), header.spec().counterBits(),
                    WordJoin.of(sources.get(0).path(), header.rule(), op), 0, progress);
            sealInPlace(temporary);
        };
    }

    /**
     * Seals the complete file in {@code temporary}, which no reader knows yet, as
     * {@link BloomFilter#seal()} seals any filter: the cells written through the channel are
     * already in the page cache that the mapping reads. The file is mapped through the temporary's
     * own descriptor, not found again by its name: a file another process renamed over that name is
     * never sealed here.
     */
    static void sealInPlace(TemporaryFile temporary) throws IOException {
        try (BloomFilter filter = BloomFilter.open(temporary.path(), temporary.reopen(), OpenMode.READ_WRITE)) {
            filter.seal();
        }
    }

    /**
     * Appends {@code op} of {@code cells} (arrays of the same words of w-bit cells) to
     * {@code channel}, a chunk at a time: the cells of a merged filter or of one merged region.
     *
     * @param done the cell bytes written before these, for {@code progress}
     * @return the cell bytes written, {@code done} included
     */
    static long writeCombined(FileChannel channel, List<CellArray> cells, int w, WordJoin op, long done,
            LongConsumer progress) throws IOException {
        long words = cells.get(0).words();
        long[] merged = new long[CHUNK_WORDS];
        long[] other = new long[CHUNK_WORDS];
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK_WORDS * 8).order(ByteOrder.LITTLE_ENDIAN);
        LongBuffer chunkWords = chunk.asLongBuffer();
        for (long from = 0; from < words; from += CHUNK_WORDS) {
            int n = (int) Math.min(CHUNK_WORDS, words - from);
            cells.get(0).copyWordsPlain(from, merged, n);
            for (CellArray source : cells.subList(1, cells.size())) {
                source.copyWordsPlain(from, other, n);
                op.combineAll(merged, other, n, w);
            }
            // Padding bits set in a damaged input are not cells: the output's stay zero.
            cells.get(0).clearPadding(merged, from, n);
            chunkWords.clear();
            chunkWords.put(merged, 0, n);
            chunk.clear().limit(n * 8);
            FilterFiles.writeFully(channel, chunk);
            if (progress != null) {
                progress.accept(done + (from + n) * 8);
            }
        }
        return done + words * 8;
    }

    /**
     * Folds {@code source} into {@code target} in place: target := target op source, one
     * compare-and-set per changed word, safe against concurrent adds to the target.
     *
     * @param target the filter to fold into, open read-write
     * @param source the filter to fold in, of the same shape; left unchanged
     * @param op {@link MergeOp#OR} for the union, {@link MergeOp#AND} for (a filter containing) the intersection
     * @param progress called with the number of cell bytes merged so far, up to the cells' length; or null
     * @throws InvalidFilterFileException with {@link Problem#INCOMPATIBLE} if the two differ in shape
     * @throws IllegalStateException if {@code target} is open read-only
     */
    public static void inPlace(BloomFilter target, BloomFilter source, MergeOp op, LongConsumer progress)
            throws InvalidFilterFileException {
        requireCompatible(target, source);
        WordJoin join = WordJoin.of(target.path(), target.header().rule(), op);
        if (target.isReadOnly()) {
            throw new IllegalStateException(target.path() + " is open read-only; open it READ_WRITE to merge into it");
        }
        CellArray into = target.cells();
        CellArray from = source.cells();
        int w = target.spec().counterBits();
        long words = into.words();
        long[] theirs = new long[CHUNK_WORDS];
        for (long start = 0; start < words; start += CHUNK_WORDS) {
            int n = (int) Math.min(CHUNK_WORDS, words - start);
            from.copyWordsPlain(start, theirs, n);
            from.clearPadding(theirs, start, n);
            for (int i = 0; i < n; i++) {
                long other = theirs[i];
                for (int failures = 1; ; failures++) {
                    long current = into.getWordVolatile(start + i);
                    long merged = join.combine(current, other, w);
                    if (merged == current || into.compareAndSetWord(start + i, current, merged)) {
                        break;
                    }
                    MappingFaults.afterFailedAttempt(failures);
                }
            }
            MappingFaults.raisePending();
            if (op == MergeOp.AND) {
                target.countLowering(); // per chunk: a checkpoint meanwhile sees the count of what it read lowered
            }
            if (progress != null) {
                progress.accept((start + n) * 8);
            }
        }
    }

    /** {@link #requireCompatible(Path, BloomSpec, Path, BloomSpec)}, and the same cell rule. */
    private static void requireCompatible(BloomFilter a, BloomFilter b) throws InvalidFilterFileException {
        requireCompatible(a.path(), a.spec(), b.path(), b.spec());
        CellRule ruleA = a.header().rule();
        CellRule ruleB = b.header().rule();
        if (!ruleA.equals(ruleB)) {
            throw new InvalidFilterFileException(b.path(), Problem.INCOMPATIBLE, "cannot be combined with " + a.path()
                    + ": one is a " + ruleA.label() + " filter" + (ruleA.isValued() ? " of " + ruleA.valueBits() + " value bits" : "")
                    + ", the other a " + ruleB.label() + " filter" + (ruleB.isValued() ? " of " + ruleB.valueBits() + " value bits" : "")
                    + "; only filters created with the same parameters combine");
        }
    }

    /**
     * How two words of cells combine: a {@link MergeOp}'s lane rule for plain filters, the cellwise
     * join for valued ones (docs/FORMAT.md, "Merge").
     */
    interface WordJoin {
        long combine(long a, long b, int w);

        default void combineAll(long[] into, long[] other, int count, int w) {
            for (int i = 0; i < count; i++) {
                into[i] = combine(into[i], other[i], w);
            }
        }

        /** {@code op} as a join of plain filters' cells, with its own loop over whole arrays. */
        static WordJoin of(MergeOp op) {
            return new WordJoin() {
                @Override
                public long combine(long a, long b, int w) {
                    return op.combine(a, b, w);
                }

                @Override
                public void combineAll(long[] into, long[] other, int count, int w) {
                    op.combineAll(into, other, count, w);
                }
            };
        }

        /** {@code op} as a join, for filters of {@code rule}; refused for the rules it has no meaning for. */
        static WordJoin of(Path path, CellRule rule, MergeOp op) throws InvalidFilterFileException {
            switch (rule.kind()) {
                case PLAIN:
                    return of(op);
                case STABLE:
                    throw new InvalidFilterFileException(path, Problem.INCOMPATIBLE, "is a stable filter, and stable"
                            + " filters do not merge: a cell's value is its age in one stream, and the join of two"
                            + " streams' cells has fewer zeros than the stable point, so its false-positive rate would"
                            + " exceed the bound both were sized for; add both streams' keys to one stable filter instead");
                default:
                    if (op != MergeOp.OR) {
                        throw new InvalidFilterFileException(path, Problem.INCOMPATIBLE, "is a " + rule.label()
                                + " filter: valued filters merge by their cellwise join (--op or), not " + op.name().toLowerCase(java.util.Locale.ROOT));
                    }
                    return rule.kind() == CellRule.Kind.MAX ? CounterLanes::maximum : CounterLanes::minimumNonEmpty;
            }
        }
    }

    static void requireCompatible(Path a, BloomSpec specA, Path b, BloomSpec specB)
            throws InvalidFilterFileException {
        var difference = specA.differenceFrom(specB);
        if (difference.isPresent()) {
            throw new InvalidFilterFileException(b, Problem.INCOMPATIBLE, "cannot be combined with " + a
                    + ": they differ in " + difference.get() + "; only filters created with the same parameters combine");
        }
    }
}

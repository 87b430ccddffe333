package io.bloomstore;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.FilterFileDescriptor;
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
import java.util.function.LongConsumer;

/**
 * OR / AND of compatible filters (same m, k, w, layout, hash and seed), word by word.
 *
 * <p>Into a new file, the output is written sequentially through a buffer and published atomically;
 * in place, each target word is updated with one compare-and-set, so handles that are adding to the
 * target at the same time lose nothing.
 */
public final class Merge {
    /** Words per step: 256 KiB per buffer, so the step's three buffers stay in the L2 cache. */
    private static final int CHUNK_WORDS = 1 << 15;

    private Merge() {
    }

    /**
     * Writes {@code op} of {@code inputs} (two or more) to a new file {@code out}.
     *
     * @param progress called with the number of cell bytes written so far, or null
     * <p>Growing or windowed inputs (all of one kind) combine region by region by OR, as
     * docs/FORMAT.md, "Merge", says; the result is a file of their kind, open to adds (not sealed).
     *
     * @throws InvalidFilterFileException with {@link Problem#INCOMPATIBLE}, naming the input and the
     *     field, if the inputs differ in kind or shape, or if AND is asked of growing or windowed
     *     inputs; no file is left behind
     * @throws IllegalStateException if a windowed input rotated while it was
     *     read; no file is left behind
     */
    public static void toNewFile(Path out, List<Path> inputs, MergeOp op, boolean replace, LongConsumer progress)
            throws IOException {
        if (inputs.size() < 2) {
            throw new IllegalArgumentException("merge needs at least two inputs, got " + inputs.size());
        }
        for (Path input : inputs) {
            if (FilterKind.of(input) != FilterKind.FIXED) {
                SegmentedMerge.toNewFile(out, inputs, op, replace, progress);
                return;
            }
        }
        FilterHeader first = BloomFilter.readHeader(inputs.get(0));
        for (Path input : inputs.subList(1, inputs.size())) {
            requireCompatible(inputs.get(0), first.spec(), input, BloomFilter.readHeader(input).spec());
        }
        List<BloomFilter> sources = new ArrayList<>();
        try {
            for (Path input : inputs) {
                sources.add(BloomFilter.open(input, OpenMode.READ_ONLY));
            }
            BloomSpec spec = first.spec();
            FilterHeader header = new FilterHeader(spec, System.currentTimeMillis(), false);
            FilterFiles.publish(out, replace, first.fileLength(), (channel, temporary) -> {
                ByteBuffer page = ByteBuffer.allocate(FilterFileDescriptor.CELLS_START);
                page.put(header.encode()).clear();
                FilterFiles.writeFully(channel, page);
                writeCombined(channel, sources.stream().map(BloomFilter::cells).toList(), spec.counterBits(), op,
                        0, progress);
            });
        } finally {
            for (BloomFilter source : sources) {
                source.close();
            }
        }
    }

    /**
     * Appends {@code op} of {@code cells} (arrays of the same words of w-bit cells) to
     * {@code channel}, a chunk at a time: the cells of a merged filter or of one merged region.
     *
     * @param done the cell bytes written before these, for {@code progress}
     * @return the cell bytes written, {@code done} included
     */
    static long writeCombined(FileChannel channel, List<CellArray> cells, int w, MergeOp op, long done,
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
     */
    public static void inPlace(BloomFilter target, BloomFilter source, MergeOp op, LongConsumer progress)
            throws InvalidFilterFileException {
        requireCompatible(target.path(), target.spec(), source.path(), source.spec());
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
            for (int i = 0; i < n; i++) {
                long other = theirs[i];
                long current;
                long merged;
                do {
                    current = into.getWordVolatile(start + i);
                    merged = op.combine(current, other, w);
                } while (merged != current && !into.compareAndSetWord(start + i, current, merged));
            }
            if (progress != null) {
                progress.accept((start + n) * 8);
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

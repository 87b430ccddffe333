package io.bloomstore;

import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.format.FormatIds;
import io.bloomstore.internal.math.SbbfFppModel;
import io.bloomstore.internal.parquet.CompactThrift.MalformedThriftException;
import io.bloomstore.internal.parquet.DamagedParquetException;
import io.bloomstore.internal.parquet.ParquetFooter;
import io.bloomstore.internal.parquet.ParquetFooter.ColumnChunk;
import io.bloomstore.internal.parquet.SplitBlockHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.stream.Stream;

/**
 * Apache Parquet's column Bloom filters in and out of bloomstore files of the {@link Layout#SBBF}
 * layout, whose cells are Parquet's split-block bitset byte for byte:
 *
 * <pre>{@code
 * // one mapped filter answering "might this value be anywhere in column user_id of the dataset?"
 * ParquetFilters.ImportReport report = ParquetFilters.importColumn(
 *         Path.of("user_id.bloom"), List.of(Path.of("/data/events")), "user_id", false, null);
 * try (BloomFilter f = BloomFilter.open(Path.of("user_id.bloom"), OpenMode.READ_ONLY)) {
 *     f.mightContain(42L);                    // hashed as Parquet hashes an INT64 (or INT32) value
 * }
 * // a filter built here, back into Parquet's form (a BloomFilterHeader and the bitset)
 * ParquetFilters.exportSbbf(Path.of("ids.bloom"), Path.of("ids.sbbf"), false);
 * }</pre>
 *
 * Only footers and filters are read, never the column data, and no Hadoop is needed.
 */
public final class ParquetFilters {
    /** Largest number of skipped row groups an {@link ImportReport} lists one by one; the rest are counted. */
    private static final int LISTED_SKIPS = 100;

    /** u64 words in a 256-bit block. */
    private static final int WORDS_PER_BLOCK = SbbfFppModel.BLOCK_BITS / 64;
    /** Largest result {@link #mergeFolded} builds on the heap. */
    private static final long MAX_FOLDED_BYTES = 1L << 30;

    private ParquetFilters() {
    }

    /**
     * The shape of an {@link Layout#SBBF} filter for {@code expectedKeys} values of {@code type} at
     * false-positive rate {@code fpp}.
     *
     * @param type the physical type of the keys
     * @param expectedKeys n, the distinct values the filter must hold, at least 1
     * @param fpp p, the false-positive rate wanted at n values, strictly between 0 and 1
     * @param parquetCompatible whether to round the bitset up to a power of two from 32 B to 128 MiB,
     *     the sizes Parquet's writers make and its readers (parquet-java, Arrow) accept, so the filter
     *     can go back into Parquet ({@link #exportSbbf}); otherwise the fewest blocks that reach p
     * @return the spec
     * @throws IllegalArgumentException if n or p is out of range, or, Parquet-compatible, p at n needs
     *     more than 128 MiB
     */
    public static BloomSpec spec(ParquetType type, long expectedKeys, double fpp, boolean parquetCompatible) {
        BloomSpec fewest = BloomSpec.builder().parquetType(type).expectedKeys(expectedKeys).fpp(fpp).build();
        if (!parquetCompatible) {
            return fewest;
        }
        long bytes = Long.highestOneBit(fewest.cells() / 8);
        bytes = bytes == fewest.cells() / 8 ? bytes : bytes * 2;
        if (bytes > SplitBlockHeader.MAX_BYTES) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "%d keys at a false-positive rate of %s need %d bytes, more than the 128 MiB a Parquet filter may have;"
                            + " raise the rate, or leave out --parquet-compatible", expectedKeys, fpp, fewest.cells() / 8));
        }
        return fewest.toBuilder().cells(Math.max(SplitBlockHeader.MIN_BYTES, bytes) * 8).build();
    }

    /**
     * What {@link #importColumn} read and merged, and what it left out and why.
     *
     * @param type the column's physical type, which the written filter hashes keys as
     * @param files the Parquet files read
     * @param rowGroups the row groups of those files
     * @param filtersMerged the row groups whose filter of the column was merged
     * @param bytesRead every byte read from the inputs: footers, filter headers and bitsets
     * @param filterBytes the bytes of the merged filters' bitsets, before folding
     * @param spec the written filter's shape: the smallest input filter's size (every larger one is folded to it)
     * @param skipped one line for each file or row group left out, saying why (no filter, encrypted,
     *     another type, ...); at most {@value #LISTED_SKIPS}, the rest counted in {@code moreSkipped}
     * @param moreSkipped skips not listed
     */
    public record ImportReport(ParquetType type, int files, long rowGroups, long filtersMerged, long bytesRead,
            long filterBytes, BloomSpec spec, List<String> skipped, long moreSkipped) {
    }

    /**
     * Merges every row group's Bloom filter of column {@code column} in the Parquet files
     * {@code inputs} (files, and directories searched for {@code *.parquet} files at any depth) into
     * one new filter file {@code out} of the {@link Layout#SBBF} layout: it answers whether a value
     * might be anywhere in that column of that dataset. Filters of different sizes are folded to
     * the smallest (exactly: a key's block in a filter of N blocks, folded by a factor f, is its
     * block in a filter of N / f blocks, docs/FORMAT.md), then ORed. {@code out} appears only when
     * complete, sealed.
     *
     * <p>Row groups without a filter of the column, encrypted column chunks, chunks stored in another
     * file, and files where the column has another physical type than in the first file that has
     * it, are left out and listed in the report: the result then does not cover them, and may say a
     * value of theirs is absent.
     *
     * @param out the filter file to write; its directory must exist
     * @param inputs Parquet files, and directories
     * @param column the column's path in the schema, its parts joined by dots ({@code a.b.c})
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing {@code out}
     *     ({@link CreateOption#SPARSE} is refused: every cell is written)
     * @return what was read and merged
     * @throws IOException naming the file and what is wrong, if an input is not a readable Parquet
     *     file or a footer or filter is damaged (a footer or filter running past the file's end,
     *     a filter claiming more than 128 MiB), or if no input has a filter of the column; no file
     *     is created then
     */
    public static ImportReport importColumn(Path out, List<Path> inputs, String column, CreateOption... options)
            throws IOException {
        return importColumn(out, inputs, column, files -> { }, options);
    }

    /**
     * {@link #importColumn(Path, List, String, CreateOption...)}, telling {@code filesDone} how far it is.
     *
     * @param out the filter file to write; its directory must exist
     * @param inputs Parquet files, and directories
     * @param column the column's path in the schema, its parts joined by dots ({@code a.b.c})
     * @param filesDone called with the number of input files read so far
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing {@code out}
     * @return what was read and merged
     * @throws IOException as {@link #importColumn(Path, List, String, CreateOption...)}
     */
    public static ImportReport importColumn(Path out, List<Path> inputs, String column, LongConsumer filesDone,
            CreateOption... options) throws IOException {
        Objects.requireNonNull(filesDone, "filesDone");
        boolean replace = CreateOption.replaceExisting("a Parquet import", options);
        List<Path> files = parquetFiles(inputs);
        Folded folded = new Folded(column);
        for (Path file : files) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                folded.read(file, channel);
            }
            filesDone.accept(++folded.files);
        }
        if (folded.words == null) {
            throw new IOException("no Bloom filter of column " + column + " in " + (files.size() == 1 ? files.get(0)
                    : "any of the " + files.size() + " files") + folded.firstSkip()
                    + "; write the files with parquet.bloom.filter.enabled#" + column + "=true, or name another column");
        }
        FilterHeader header = writeSealed(out, replace, folded.type, folded.words);
        BloomSpec spec = header.spec();
        return new ImportReport(folded.type, folded.files, folded.rowGroups, folded.merged, folded.bytesRead,
                folded.filterBytes, spec, List.copyOf(folded.skipped), folded.moreSkipped);
    }

    /** Writes a new sealed sbbf filter file of keys of {@code type} whose cells are {@code words}. */
    private static FilterHeader writeSealed(Path out, boolean replace, ParquetType type, long[] words) throws IOException {
        BloomSpec spec = BloomSpec.builder().parquetType(type).cells(words.length * 64L).build();
        FilterHeader header = FilterHeader.newFile(spec, System.currentTimeMillis(), false);
        FilterFiles.publishFilter(out, replace, header, false, (channel, temporary) -> {
            ByteBuffer cells = ByteBuffer.allocate(words.length * 8).order(ByteOrder.LITTLE_ENDIAN);
            cells.asLongBuffer().put(words);
            FilterFiles.writeFully(channel, cells);
            FilterFiles.writeZeros(channel, spec.cellBytes() - words.length * 8L);
            Merge.sealInPlace(temporary);
        });
        return header;
    }

    /**
     * Whether {@link Merge} takes {@code sources} by folding: an OR of sbbf filters of one Parquet
     * type and different sizes, which fold exactly to their common block count ({@link #fold}).
     */
    static boolean foldable(List<BloomFilter> sources, MergeOp op) {
        BloomSpec first = sources.get(0).spec();
        return op == MergeOp.OR && first.layout() == Layout.SBBF
                && sources.stream().allMatch(s -> s.spec().layout() == Layout.SBBF
                        && s.spec().parquetType() == first.parquetType())
                && sources.stream().anyMatch(s -> s.spec().cells() != first.cells());
    }

    /**
     * The OR of sbbf filters of different sizes into a new sealed file {@code out}: each folded to
     * the greatest common divisor of their block counts, which is then the result's, so a key any of
     * them holds is found in it, exactly as in a filter of that size built from all their keys.
     *
     * @throws IllegalArgumentException if the result would take more than 1 GiB, which is built on
     *     the heap
     */
    static FilterFileSummary mergeFolded(Path out, List<BloomFilter> sources, boolean replace, LongConsumer progress)
            throws IOException {
        long blocks = 0;
        for (BloomFilter source : sources) {
            blocks = gcd(source.spec().cells() / SbbfFppModel.BLOCK_BITS, blocks);
        }
        if (blocks * SbbfFppModel.BLOCK_BITS / 8 > MAX_FOLDED_BYTES) {
            throw new IllegalArgumentException("sbbf filters of different sizes fold to their common block count, "
                    + blocks + " blocks here, which is more than this merge builds in memory (1 GiB); merge filters of equal size");
        }
        long[] words = new long[(int) (blocks * WORDS_PER_BLOCK)];
        long[] chunk = new long[1 << 15];
        long done = 0;
        for (BloomFilter source : sources) {
            long sourceWords = source.spec().cells() / 64;
            long factor = sourceWords / words.length;
            for (long from = 0; from < sourceWords; from += chunk.length) {
                int n = (int) Math.min(chunk.length, sourceWords - from);
                source.cells().copyWordsPlain(from, chunk, n);
                for (int i = 0; i < n; i++) {
                    long w = from + i;
                    words[(int) (w / WORDS_PER_BLOCK / factor * WORDS_PER_BLOCK + w % WORDS_PER_BLOCK)] |= chunk[i];
                }
                if (progress != null) {
                    progress.accept((done += n * 8L));
                }
            }
        }
        FilterHeader header = writeSealed(out, replace, sources.get(0).spec().parquetType(), words);
        return new FilterFileSummary(FilterKind.FIXED, 1, header.fileLength(), Optional.of(header.info()));
    }

    /**
     * Writes the filter {@code filter}, of the {@link Layout#SBBF} layout, as Parquet stores a column
     * chunk's filter: the Thrift compact {@code BloomFilterHeader} (numBytes, BLOCK, XXHASH,
     * UNCOMPRESSED) followed by the bitset, which parquet-java's {@code BlockSplitBloomFilter} and
     * Arrow's readers take. {@code out} appears only when complete.
     *
     * @param filter the filter file, of the sbbf layout
     * @param out the file to write; its directory must exist
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing {@code out}
     *     ({@link CreateOption#SPARSE} is refused: every byte is written)
     * @return the bytes written
     * @throws IllegalArgumentException if the filter is not of the sbbf layout, or its bitset is not
     *     a power of two from 32 B to 128 MiB (the sizes Parquet readers accept)
     * @throws IOException if the filter cannot be opened or {@code out} written
     */
    public static long exportSbbf(Path filter, Path out, CreateOption... options) throws IOException {
        boolean replace = CreateOption.replaceExisting("an sbbf export", options);
        try (BloomFilter source = BloomFilter.open(filter, OpenMode.READ_ONLY)) {
            BloomSpec spec = source.spec();
            if (spec.layout() != Layout.SBBF) {
                throw new IllegalArgumentException(filter + " is a filter of the " + spec.layout().name().toLowerCase(
                        java.util.Locale.ROOT) + " layout; only an sbbf filter is Parquet's (create one with --layout sbbf,"
                        + " or import-parquet)");
            }
            long numBytes = spec.cells() / 8;
            if (Long.bitCount(numBytes) != 1 || numBytes > SplitBlockHeader.MAX_BYTES) {
                throw new IllegalArgumentException(filter + " has " + numBytes + " bytes of bits, not a power of two up to"
                        + " 128 MiB as Parquet's readers require; create it with --parquet-compatible");
            }
            ByteBuffer header = SplitBlockHeader.write((int) numBytes);
            long length = header.remaining() + numBytes;
            FilterFiles.publish(out, replace, length, false, (channel, temporary) -> {
                FilterFiles.writeFully(channel, header);
                long[] chunk = new long[(int) Math.min(numBytes / 8, 1 << 16)];
                ByteBuffer bytes = ByteBuffer.allocate(chunk.length * 8).order(ByteOrder.LITTLE_ENDIAN);
                for (long from = 0; from < numBytes / 8; from += chunk.length) {
                    int n = (int) Math.min(chunk.length, numBytes / 8 - from);
                    source.cells().copyWordsPlain(from, chunk, n);
                    bytes.clear();
                    bytes.asLongBuffer().put(chunk, 0, n);
                    bytes.limit(n * 8);
                    FilterFiles.writeFully(channel, bytes);
                }
            });
            return length;
        }
    }

    /**
     * Folds a split-block bitset of {@code words.length / 4} blocks to {@code blocks} blocks, a
     * divisor: block b becomes block b / f, f the factor, which is where Parquet's block index,
     * floor((h >>> 32) N / 2^32), puts every key of the smaller filter, since
     * floor(floor(f x) / f) = floor(x).
     */
    static long[] fold(long[] words, long blocks) {
        int wordsPerBlock = WORDS_PER_BLOCK;
        long factor = words.length / wordsPerBlock / blocks;
        long[] folded = new long[(int) (blocks * wordsPerBlock)];
        for (int w = 0; w < words.length; w++) {
            int block = w / wordsPerBlock;
            folded[(int) (block / factor) * wordsPerBlock + w % wordsPerBlock] |= words[w];
        }
        return folded;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** The files named and the {@code *.parquet} files under the directories named, each directory's sorted. */
    private static List<Path> parquetFiles(List<Path> inputs) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path input : inputs) {
            if (Files.isDirectory(input)) {
                try (Stream<Path> walk = Files.walk(input)) {
                    walk.filter(p -> p.getFileName().toString().endsWith(".parquet") && Files.isRegularFile(p)).sorted()
                            .forEach(files::add);
                }
                if (files.isEmpty()) {
                    throw new NoSuchFileException(input.toString(), null, "no *.parquet file in this directory");
                }
            } else if (!Files.exists(input)) {
                throw new NoSuchFileException(input.toString());
            } else {
                files.add(input);
            }
        }
        return files;
    }

    /** The OR of the filters read so far, folded to the smallest of them. */
    private static final class Folded {
        private final String column;
        private ParquetType type;
        private Path typeFile;
        private long[] words;
        private int files;
        private long rowGroups;
        private long merged;
        private long bytesRead;
        private long filterBytes;
        private final List<String> skipped = new ArrayList<>();
        private long moreSkipped;

        Folded(String column) {
            this.column = column;
        }

        void read(Path file, FileChannel channel) throws IOException {
            ParquetFooter.Footer footer = ParquetFooter.read(file, channel);
            bytesRead += footer.bytesRead();
            rowGroups += footer.rowGroups().size();
            boolean seen = false;
            for (int index = 0; index < footer.rowGroups().size(); index++) {
                List<ColumnChunk> group = footer.rowGroups().get(index);
                Optional<ColumnChunk> chunk = group.stream().filter(c -> column.equals(c.path())).findFirst();
                if (chunk.isEmpty()) {
                    if (group.stream().anyMatch(c -> c.path() == null)) {
                        seen = true;
                        skip(file + " row group " + index + ": the column chunks are encrypted");
                    }
                    continue;
                }
                seen = true;
                readChunk(file, channel, chunk.get());
            }
            if (!seen && !footer.rowGroups().isEmpty()) {
                skip(file + ": no column " + column + " (columns: " + String.join(", ", footer.rowGroups().get(0).stream()
                        .map(c -> String.valueOf(c.path())).toList()) + ")");
            }
        }

        private void readChunk(Path file, FileChannel channel, ColumnChunk chunk) throws IOException {
            String where = file + " row group " + chunk.rowGroup();
            ParquetType chunkType;
            try {
                chunkType = FormatIds.parquetType(chunk.type());
            } catch (IllegalArgumentException e) {
                skip(where + ": " + e.getMessage());
                return;
            }
            if (chunk.encrypted()) {
                skip(where + ": the column chunk is encrypted");
                return;
            }
            if (chunk.otherFile() != null) {
                skip(where + ": the column chunk is in another file, " + chunk.otherFile());
                return;
            }
            if (type != null && chunkType != type) {
                skip(where + ": column " + column + " is " + chunkType + " here but " + type + " in " + typeFile);
                return;
            }
            if (chunk.filterOffset() < 0) {
                skip(where + ": no Bloom filter of column " + column);
                return;
            }
            long size = channel.size();
            long offset = chunk.filterOffset();
            int length = chunk.filterLength();
            if (offset < 4 || offset >= size || (length >= 0 && offset + length > size)) {
                throw new DamagedParquetException(file, "the Bloom filter of column " + column + " in row group "
                        + chunk.rowGroup() + " (at " + offset + (length >= 0 ? ", " + length + " bytes" : "")
                        + ") runs past the end of the file's " + size + " bytes");
            }
            int headerBytes = (int) Math.min(SplitBlockHeader.MAX_HEADER_LENGTH,
                    length >= 0 ? length : size - offset);
            SplitBlockHeader header;
            try {
                header = SplitBlockHeader.read(ParquetFooter.readAt(file, channel, offset, headerBytes));
            } catch (MalformedThriftException e) {
                throw new DamagedParquetException(file, "the Bloom filter header of column " + column + " in row group "
                        + chunk.rowGroup() + " is damaged (" + e.getMessage() + ")");
            }
            bytesRead += headerBytes;
            if (header.unsupported() != null) {
                skip(where + ": the Bloom filter has " + header.unsupported());
                return;
            }
            long end = offset + header.headerLength() + header.numBytes();
            if (end > size || (length >= 0 && header.headerLength() + header.numBytes() > length)) {
                throw new DamagedParquetException(file, "the Bloom filter of column " + column + " in row group "
                        + chunk.rowGroup() + " claims " + header.numBytes() + " bytes, past "
                        + (end > size ? "the end of the file" : "its recorded length of " + length));
            }
            ByteBuffer bitset = ParquetFooter.readAt(file, channel, offset + header.headerLength(), header.numBytes());
            bytesRead += header.numBytes();
            filterBytes += header.numBytes();
            long[] read = new long[header.numBytes() / 8];
            bitset.asLongBuffer().get(read);
            or(read);
            if (type == null) {
                type = chunkType;
                typeFile = file;
            }
            merged++;
        }

        private void or(long[] read) {
            if (words == null) {
                words = read;
                return;
            }
            long blocks = gcd(words.length / 4, read.length / 4);
            long[] into = words.length / 4 == blocks ? words : fold(words, blocks);
            long[] from = read.length / 4 == blocks ? read : fold(read, blocks);
            for (int w = 0; w < into.length; w++) {
                into[w] |= from[w];
            }
            words = into;
        }


        private void skip(String line) {
            if (skipped.size() < LISTED_SKIPS) {
                skipped.add(line);
            } else {
                moreSkipped++;
            }
        }

        String firstSkip() {
            return skipped.isEmpty() ? "" : " (" + skipped.get(0) + (skipped.size() > 1 ? ", and " + (skipped.size() - 1
                    + moreSkipped) + " more" : "") + ")";
        }
    }
}

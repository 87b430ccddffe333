package io.bloomstore;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.cells.PositionalCells;
import io.bloomstore.internal.probe.GuavaWideProbes;
import io.bloomstore.internal.probe.CellQueries;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * A fixed filter file open for a few queries without a mapping ({@code io.bloomstore.tools.UnmappedQueries}):
 * the header read and checked through the file's one channel as {@link BloomFilter#open} checks it,
 * then each query reads its probed words through that channel ({@link PositionalCells}) in the
 * query loop the mapped filter runs ({@link CellQueries}). Nothing on this path loads a class of
 * Chronicle, whose start a short process would otherwise pay for (a test checks it in a process of
 * its own).
 */
final class UnmappedFilter implements MembershipFilter {
    private final Path path;
    private final FileChannel channel;
    private final FilterHeader header;
    private final CellQueries queries;
    private final KeyHasher hasher;
    private volatile boolean closed;
    /** Guarded by this. */
    private BloomFilter mapped;

    private UnmappedFilter(Path path, CheckedFile file) {
        this.path = path;
        this.channel = file.channel();
        this.header = file.header();
        BloomSpec spec = header.spec();
        this.queries = new CellQueries(spec, new PositionalCells(channel, FilterFileDescriptor.CELLS_START,
                spec.cells(), spec.counterBits()));
        this.hasher = KeyHasher.of(spec);
    }

    /**
     * Checks the fixed filter file open on {@code channel}, which it takes over: closed with the
     * filter, or here if the file fails its checks (with the exception {@link BloomFilter#open} gives).
     */
    static MembershipFilter open(Path path, FileChannel channel) throws IOException {
        CheckedFile file = CheckedFile.check(path, channel);
        // its probes need a key's 128-bit hash, which the positional queries here do not take
        return GuavaWideProbes.appliesTo(file.header().spec()) ? BloomFilter.open(path, channel, OpenMode.READ_ONLY)
                : new UnmappedFilter(path, file);
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public KeyHasher hasher() {
        return hasher;
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    /** Refused: this handle only reads. */
    @Override
    public boolean addHash(long hash) {
        throw readOnly();
    }

    /** Refused: this handle only reads. */
    @Override
    public int addHashes(long[] hashes, int count) {
        throw readOnly();
    }

    @Override
    public boolean mightContainHash(long hash) {
        ensureOpen();
        try {
            return queries.mightContain(hash);
        } catch (UncheckedIOException e) {
            throw described(e);
        }
    }

    /** One key after the other: there are no cache misses to overlap, only system calls. */
    @Override
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        HashChunks.requireRoom(count, results);
        int present = 0;
        for (int i = 0; i < count; i++) {
            results[i] = mightContainHash(hashes[i]);
            present += results[i] ? 1 : 0;
        }
        return present;
    }

    /** Nothing to force: this handle changes nothing. */
    @Override
    public FilterKind kind() {
        return FilterKind.FIXED;
    }

    @Override
    public FilterShape.Fixed shape() {
        return mapped().shape();
    }

    @Override
    public CellArrayStats stats(LongConsumer bytesScanned) {
        return mapped().stats(bytesScanned);
    }

    @Override
    public Optional<BloomFilter> asFixed() {
        return Optional.of(mapped());
    }

    @Override
    public long approximateKeys() {
        return mapped().approximateKeys();
    }

    @Override
    public boolean isPastCapacity() {
        return mapped().isPastCapacity();
    }

    @Override
    public CellsCheck verify() throws IOException {
        return mapped().verify();
    }

    @Override
    public CellsCheck verify(LongConsumer bytesRead) throws IOException {
        return mapped().verify(bytesRead);
    }

    @Override
    public long fileBytes() {
        ensureOpen();
        return header.fileLength();
    }

    /**
     * The file mapped through this handle's descriptor, for the management questions, which scan or
     * read the state words: made at the first of them, so a handle that only queries never maps.
     */
    private synchronized BloomFilter mapped() {
        ensureOpen();
        if (mapped == null) {
            try {
                mapped = BloomFilter.open(path, channel, OpenMode.READ_ONLY);
            } catch (IOException e) {
                throw new UncheckedIOException(path + ": cannot map it (" + e.getMessage() + ")", e);
            }
        }
        return mapped;
    }

    @Override
    public void sync() {
        ensureOpen();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (mapped != null) {
            mapped.close(); // unmaps, and closes the descriptor it took over
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // a read-only descriptor: nothing was written that closing could lose
        }
    }

    @Override
    public String toString() {
        return "UnmappedFilter[" + path + ", " + header.spec() + "]";
    }

    /**
     * A failed read, with the file named: a file now shorter than its header says was truncated
     * after it was opened (by another program; no handle of bloomstore shortens a fixed filter).
     */
    private UncheckedIOException described(UncheckedIOException e) {
        if (!(e.getCause() instanceof EOFException)) {
            return new UncheckedIOException(path + ": cannot read its cells (" + e.getCause() + ")", e.getCause());
        }
        String now;
        try {
            now = "now " + channel.size() + " bytes, ";
        } catch (IOException unknown) {
            now = "";
        }
        return new UncheckedIOException(new InvalidFilterFileException(path, Problem.LENGTH_MISMATCH,
                "the file was truncated by another program while it was open (" + now + "its header says "
                        + header.fileLength() + "); answers read from it may be wrong; restore it from a pack or"
                        + " rebuild it, and keep other programs from writing to it", e.getCause()));
    }

    private IllegalStateException readOnly() {
        ensureOpen();
        return new IllegalStateException(path + " is open read-only; open it READ_WRITE to change it");
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(path + " is closed");
        }
    }
}

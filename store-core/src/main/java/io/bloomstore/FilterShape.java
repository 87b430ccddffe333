package io.bloomstore;

import io.bloomstore.internal.format.ContainerDescriptor;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * What an open filter file is, read from its headers without scanning its cells
 * ({@link MembershipFilter#shape()}): the questions every kind answers the same way, and one
 * record per kind with the detail only that kind has.
 *
 * <p>A caller that needs a kind's detail takes it with {@link #map}, which names one function per
 * kind: a kind added later is then a compile error at each such caller, never a case silently
 * missed. Everything else asks the common accessors.
 */
public sealed interface FilterShape extends FileShape permits FilterShape.Fixed, FilterShape.Growing, FilterShape.Windowed, SegmentedShape {
    /**
     * The kind of file.
     *
     * @return its kind
     */
    FilterKind kind();

    /**
     * How each region's cells are laid out.
     *
     * @return the layout of the file's cells (every region of a growing or windowed file shares it)
     */
    Layout layout();

    /**
     * The hash function keys go through.
     *
     * @return the algorithm of {@link MembershipFilter#hasher()}
     */
    HashAlgorithm hashAlgorithm();

    /**
     * The seed of the hash function.
     *
     * @return the seed of {@link MembershipFilter#hasher()}
     */
    long seed();

    /**
     * The keys the filter was sized for: of a fixed filter, in all; of a growing one, in its first
     * segment; of a windowed one, per window.
     *
     * @return n, or 0 for a fixed filter sized by cells and hashes
     */
    long expectedKeys();

    /**
     * The false-positive rate the filter was sized for.
     *
     * @return a fraction strictly between 0 and 1, or 0 for a fixed filter sized by cells and hashes
     */
    double targetFpp();

    /**
     * The file's length, read through the descriptor the filter was opened on.
     *
     * @return its size on disk, in bytes
     */
    long fileBytes();

    /**
     * The bytes before the first cell: a fixed filter's header page, or a growing or windowed
     * file's container page (its header, shared words and table of regions).
     *
     * @return in bytes
     */
    default long headerBytes() {
        return ContainerDescriptor.FIRST_REGION;
    }

    /**
     * What a scan of the filter ({@link MembershipFilter#stats(java.util.function.LongConsumer)},
     * or the check of a sealed filter by {@link MembershipFilter#verify(java.util.function.LongConsumer)})
     * reports to its progress callback in all: the total a progress display shows.
     *
     * @return in bytes: a fixed filter's cells, or the whole of a file of regions
     */
    default long scanBytes() {
        return fileBytes();
    }

    /**
     * Whether a checksum of the cells is recorded, which {@link MembershipFilter#verify} then checks.
     *
     * @return true for a sealed fixed filter; false for one not sealed and for the kinds whose cells
     *     are written live (growing, windowed)
     */
    default boolean sealed() {
        return false;
    }

    /**
     * The detail of this kind, by one function per kind.
     *
     * @param <R> what each function returns
     * @param fixed applied to a fixed filter's shape
     * @param growing applied to a growing filter's shape
     * @param windowed applied to a windowed filter's shape
     * @return what the function of this kind returned
     */
    <R> R map(Function<? super Fixed, ? extends R> fixed, Function<? super Growing, ? extends R> growing,
            Function<? super Windowed, ? extends R> windowed);

    /**
     * A fixed filter ({@link BloomFilter}), format version 1.
     *
     * @param info the header's fields
     * @param approximateKeys the distinct keys added so far, as {@link MembershipFilter#approximateKeys()} counts them
     * @param sealedChecksum the checksum of the cells recorded by the last seal; empty if the
     *     filter is not sealed (never sealed, or opened for writing since)
     * @param openWriters how many handles have the file open for writing, as the header counts them
     *     (one that crashed stays counted)
     */
    record Fixed(FilterFileInfo info, long approximateKeys, OptionalLong sealedChecksum, int openWriters)
            implements FilterShape {
        /**
         * The cells' shape.
         *
         * @return the spec in the header
         */
        public BloomSpec spec() {
            return info.spec();
        }

        @Override
        public FilterKind kind() {
            return FilterKind.FIXED;
        }

        @Override
        public Layout layout() {
            return info.spec().layout();
        }

        @Override
        public HashAlgorithm hashAlgorithm() {
            return info.spec().hashAlgorithm();
        }

        @Override
        public long seed() {
            return info.spec().seed();
        }

        @Override
        public long expectedKeys() {
            return info.spec().expectedKeys();
        }

        @Override
        public double targetFpp() {
            return info.spec().targetFpp();
        }

        @Override
        public long fileBytes() {
            return info.fileLength();
        }

        @Override
        public long headerBytes() {
            return info.headerLength();
        }

        @Override
        public long scanBytes() {
            return info.cellsLength();
        }

        @Override
        public boolean sealed() {
            return sealedChecksum.isPresent();
        }

        @Override
        public <R> R map(Function<? super Fixed, ? extends R> fixed, Function<? super Growing, ? extends R> growing,
                Function<? super Windowed, ? extends R> windowed) {
            return fixed.apply(this);
        }
    }

    /**
     * A growing chain of segments ({@link GrowingBloomFilter}), format version 2.
     *
     * @param spec the parameters it was created with
     * @param hashAlgorithm the hash function of every segment
     * @param segments the segments published, at least 1
     * @param fileBytes the file's length
     * @param preparedBytes the next segment, written ahead but not published (no query reads it
     *     yet); 0 when there is none
     * @param stepLock who holds the file's step lock: "free", or which process and whether it
     *     runs, is stopped (and how to resume it) or has ended
     */
    record Growing(GrowingSpec spec, HashAlgorithm hashAlgorithm, int segments, long fileBytes, long preparedBytes,
            String stepLock) implements FilterShape, SegmentedShape {
        @Override
        public FilterKind kind() {
            return FilterKind.GROWING;
        }

        @Override
        public <R> R map(Function<? super Fixed, ? extends R> fixed, Function<? super Growing, ? extends R> growing,
                Function<? super Windowed, ? extends R> windowed) {
            return growing.apply(this);
        }
    }

    /**
     * A time-windowed ring of slots ({@link WindowedBloomFilter}), format version 2.
     *
     * @param spec the parameters it was created with
     * @param hashAlgorithm the hash function of every slot
     * @param queryEpoch the epoch a query judges the window by now: the file's clock's (this handle's clock
     *     if this process owns the file's clock, else the owner's), or the file's current epoch if
     *     that is later; a query probes the slots holding it and the L epochs before it
     * @param currentEpoch the epoch the file last rotated to ({@link WindowedBloomFilter#currentEpoch()})
     * @param fileBytes the file's length
     * @param stepLock who holds the file's step lock, as {@link Growing#stepLock()}
     */
    record Windowed(WindowSpec spec, HashAlgorithm hashAlgorithm, long queryEpoch, long currentEpoch, long fileBytes,
            String stepLock) implements FilterShape, SegmentedShape {
        /**
         * The slots of the ring: one per epoch of the window, and the one being cleared for the next.
         *
         * @return L + 1
         */
        public int slots() {
            return spec.epochs() + 1;
        }

        @Override
        public FilterKind kind() {
            return FilterKind.WINDOWED;
        }

        @Override
        public <R> R map(Function<? super Fixed, ? extends R> fixed, Function<? super Growing, ? extends R> growing,
                Function<? super Windowed, ? extends R> windowed) {
            return windowed.apply(this);
        }
    }
}

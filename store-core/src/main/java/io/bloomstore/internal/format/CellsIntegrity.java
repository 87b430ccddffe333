package io.bloomstore.internal.format;

import io.bloomstore.CellsCheck;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.FilterMemory;
import io.bloomstore.internal.cells.MappingFaults;
import io.bloomstore.internal.hashing.CellsChecksum;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * What opening a filter file does not check (opening checks the header and the length), checked
 * on its mapping: that the header and the state area were created together (the file identity,
 * format version 3), that every padding bit after the last cell is zero, and, if the filter is
 * sealed, the cells against the checksum recorded when it was sealed; and that checksum, which
 * sealing records.
 *
 * <p>The seal is read before and after the pass over the cells, and only a seal that stood
 * unchanged through the pass judges them ({@link Seal#heldUntil}): a handle opened for writing
 * withdraws the seal before it changes a cell, so then every cell the pass read was a sealed one,
 * and a mismatch is damage. A seal withdrawn during the pass is no verdict on the cells; a file
 * sealed anew during the pass is checked again against its new seal, a few times at most.
 *
 * @param path the file's name, for messages only
 * @param header the file's checked header
 * @param state the file's state area, on {@code memory}
 * @param memory the file's mapping (or a builder's image of it)
 * @param cells the cells, on {@code memory}
 */
public record CellsIntegrity(Path path, FilterHeader header, FilterState state, FilterMemory memory, CellArray cells) {
    /** How many passes a check makes over cells that keep being sealed anew under it. */
    private static final int RESEALED_PASSES = 3;

    /** The checksum of the cells as they are now, bound to the file's identity: what a seal records. */
    public long cellsChecksum() {
        long checksum = CellsChecksum.of(memory.store(), FilterFileDescriptor.CELLS_START, header.spec().cellBytes(),
                header.identity());
        MappingFaults.raisePending(); // a checksum of skipped loads is not to be compared, nor sealed
        return checksum;
    }

    /**
     * Checks identity, padding and, if sealed, the cells (the class comment says how).
     *
     * @param bytesRead if not null, the cells of a sealed filter are first read through in order,
     *     telling it the bytes read so far; then hashed from memory
     * @throws InvalidFilterFileException {@link Problem#HEADER_MISMATCH}, {@link Problem#CELLS_PADDING}
     *     or {@link Problem#CELLS_CHECKSUM}
     * @throws IllegalStateException if the file was sealed anew during every one of several passes
     */
    public CellsCheck check(LongConsumer bytesRead) throws InvalidFilterFileException {
        if (bytesRead != null && state.getSealStateVolatile() == FilterFileDescriptor.SEALED) {
            cells.readThrough(bytesRead);
        }
        requireOwnStateArea();
        requireZeroPadding();
        for (int pass = 1; ; pass++) {
            Seal before = state.sealVolatile();
            if (!before.sealed()) {
                return pass == 1 ? CellsCheck.NOT_SEALED : CellsCheck.UNSEALED_DURING_CHECK;
            }
            long actual = cellsChecksum();
            VarHandle.acquireFence(); // the pass's loads of the cells are done before the seal is read again
            Seal after = state.sealVolatile();
            if (before.heldUntil(after)) {
                if (actual != before.checksum()) {
                    throw new InvalidFilterFileException(path, Problem.CELLS_CHECKSUM, String.format(
                            "cells are damaged (checksum %016x, sealed as %016x)"
                                    + (header.isBound() ? ", or header and cells do not belong together (a header page"
                                    + " copied from another filter file)" : "")
                                    + "; restore the file from a pack or rebuild it",
                            actual, before.checksum()));
                }
                return CellsCheck.INTACT;
            }
            if (!after.sealed()) {
                return CellsCheck.UNSEALED_DURING_CHECK;
            }
            if (pass == RESEALED_PASSES) {
                throw new IllegalStateException(path + " was sealed anew during each of " + RESEALED_PASSES
                        + " checks of its cells; check it once nothing seals it");
            }
        }
    }

    private void requireOwnStateArea() throws InvalidFilterFileException {
        if (header.isBound() && state.getIdentityCopyVolatile() != header.identity()) {
            throw new InvalidFilterFileException(path, Problem.HEADER_MISMATCH, String.format(
                    "header and cells do not belong together: the header's file identity %016x is not the %016x"
                            + " its state area was created with (a header copied from another filter file, or a"
                            + " damaged state area);"
                            + " restore the file from a pack or rebuild it",
                    header.identity(), state.getIdentityCopyVolatile()));
        }
    }

    private void requireZeroPadding() throws InvalidFilterFileException {
        long paddingWord = cells.firstWordWithPaddingSet();
        if (paddingWord >= 0) {
            throw new InvalidFilterFileException(path, Problem.CELLS_PADDING, String.format(
                    "cells are damaged: bits after the last of the %d cells (padding, in the word at byte %d)"
                            + " are set, which no operation writes; restore the file from a pack or rebuild it",
                    header.spec().cells(), FilterFileDescriptor.CELLS_START + paddingWord * 8));
        }
    }
}

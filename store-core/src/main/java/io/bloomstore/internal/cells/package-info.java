/**
 * Memory: the file mapping (one descriptor for checking, mapping and syncing, seen through a
 * Chronicle Bytes store), or a whole file's image in anonymous memory that a builder writes to its
 * file once, both behind {@link io.bloomstore.internal.cells.FilterMemory}; and the lock-free array
 * of w-bit cells on either, one compare-and-set of one aligned word per update (plain stores for
 * one writer of an image). The layout of cells in words is described once
 * ({@link io.bloomstore.internal.cells.PackedCells}), for the array in memory and for cells read
 * from the file without a mapping ({@link io.bloomstore.internal.cells.PositionalCells}, which loads
 * no Chronicle class); arrays of one shape read at one index together
 * ({@link io.bloomstore.internal.cells.CellArrayGroup}, a ring's slots); and how loops over a
 * mapping end with its fault when another program truncates the file under them
 * ({@link io.bloomstore.internal.cells.MappingFaults}). Depends on nothing else of bloomstore.
 */
package io.bloomstore.internal.cells;

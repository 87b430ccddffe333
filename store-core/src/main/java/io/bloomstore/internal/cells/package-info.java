/**
 * Memory: the file mapping (one descriptor for checking, mapping and syncing, seen through a
 * Chronicle Bytes store), or a whole file's image in anonymous memory that a builder writes to its
 * file once, both behind {@link io.bloomstore.internal.cells.FilterMemory}; and the lock-free array
 * of w-bit cells on either, one compare-and-set of one aligned word per update (plain stores for
 * one writer of an image). Depends on nothing else of bloomstore.
 */
package io.bloomstore.internal.cells;

/**
 * Memory: the file mapping (one descriptor for checking, mapping and syncing, seen through a
 * Chronicle Bytes store) and the lock-free array of w-bit cells on it, one compare-and-set of one
 * aligned word per update. Depends on nothing else of bloomstore.
 */
package io.bloomstore.internal.cells;

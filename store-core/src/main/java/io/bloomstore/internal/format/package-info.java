/**
 * The file format of docs/FORMAT.md: where every byte lies ({@link
 * io.bloomstore.internal.format.FilterFileDescriptor}), the immutable header's codec and checks,
 * opening a file with its header checked on the channel that is then mapped
 * ({@link io.bloomstore.internal.format.CheckedFile}), the mutable state area updated in place, and
 * the checks of a mapped file that opening leaves out: identity, padding, cells against their seal
 * ({@link io.bloomstore.internal.format.CellsIntegrity}); for segmented files (version 2) the
 * container header, its sizing of regions and its shared words. Depends on the API's value types,
 * {@code internal.cells} and {@code internal.hashing} (the cells checksum).
 */
package io.bloomstore.internal.format;

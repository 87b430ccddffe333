/**
 * The file format of docs/FORMAT.md: where every byte lies ({@link
 * io.bloomstore.internal.format.FilterFileDescriptor}), the immutable header's codec and checks,
 * opening a file with its header checked on the channel that is then mapped
 * ({@link io.bloomstore.internal.format.CheckedFile}), and the mutable state area updated in place;
 * for segmented files (version 2) the container header, its sizing of regions and its shared words.
 * Depends on the API's value types and on
 * {@code internal.cells}.
 */
package io.bloomstore.internal.format;

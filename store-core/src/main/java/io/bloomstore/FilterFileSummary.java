package io.bloomstore;

import java.util.Optional;

/**
 * What an operation that writes a whole filter file ({@link Merge#toNewFile}, {@link Pack#unpack})
 * wrote, from the headers it wrote or checked: what a caller reports without opening the new file
 * by its path again (another file may be there by then).
 *
 * @param kind the kind of filter file
 * @param regions 1 for a fixed filter; the published segments of a chain, the slots of a ring
 * @param fileLength the file's length
 * @param info a fixed filter's header; empty for a growing or windowed file
 */
public record FilterFileSummary(FilterKind kind, int regions, long fileLength, Optional<FilterFileInfo> info) {
}

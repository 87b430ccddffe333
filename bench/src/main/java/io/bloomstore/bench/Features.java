package io.bloomstore.bench;

/**
 * What a filter offers besides speed, the row a user compares before choosing: each answer as the
 * filter's own docs (or, where they are silent, its source) give it; {@link ComparedFilter} cites them.
 *
 * @param persisted whether and how the filter outlives the process
 * @param openInConstantTime whether a stored filter is usable without reading all of it
 * @param sharedByProcesses whether several processes can use one filter at once
 * @param threadSafeUpdates whether threads may add to one filter concurrently without losing keys
 * @param counting whether it can count (and so remove)
 * @param maxSize the largest filter it can hold, and what limits it
 */
public record Features(String persisted, String openInConstantTime, String sharedByProcesses, String threadSafeUpdates,
        String counting, String maxSize) {
    /** bloomstore's row: DESIGN.md (mapped file, O(1) open, lock-free CAS shared by threads and processes). */
    static final Features BLOOMSTORE = new Features("yes: the filter is its file", "yes: map and check the header",
            "yes: lock-free atomic updates on the mapping", "yes (CAS)", "yes (counter widths above 1 bit)",
            "2^56 cells (BloomSpec.MAX_CELLS)");
}

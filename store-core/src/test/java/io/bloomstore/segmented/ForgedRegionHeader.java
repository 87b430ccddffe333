package io.bloomstore.segmented;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.format.FilterHeader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A region header that is valid on its own (its CRC32C matches) but gives the region another
 * shape than its place in the file: the damage {@code verify} and a ring's open must catch.
 */
final class ForgedRegionHeader {
    private static final byte[] MAGIC = "BLOOMSTR".getBytes(StandardCharsets.US_ASCII);

    private ForgedRegionHeader() {
    }

    /**
     * Overwrites region {@code region}'s header in a segmented file's {@code bytes} with one for
     * {@code shape}'s cells and one more hash.
     *
     * @return the forged shape
     */
    static BloomSpec withOneMoreHash(byte[] bytes, int region, BloomSpec shape) {
        return with(bytes, region, BloomSpec.builder().cells(shape.cells()).hashes(shape.hashes() + 1)
                .layout(shape.layout()).seed(shape.seed()).build());
    }

    /**
     * Overwrites region {@code region}'s header with one for {@code shape}'s cells, hashes, layout
     * and seed, given by cells and hashes: the shape is right, the n and p it records (0) are not.
     *
     * @return the forged spec
     */
    static BloomSpec withoutItsSizing(byte[] bytes, int region, BloomSpec shape) {
        return with(bytes, region, BloomSpec.builder().cells(shape.cells()).hashes(shape.hashes())
                .layout(shape.layout()).seed(shape.seed()).build());
    }

    private static BloomSpec with(byte[] bytes, int region, BloomSpec other) {
        byte[] header = FilterHeader.unbound(other, 0, false).encode();
        System.arraycopy(header, 0, bytes, headerStart(bytes, region + 1), header.length); // 0: the container's
        return other;
    }

    /** Where the {@code nth} (0 = first) header magic starts in {@code bytes}. */
    private static int headerStart(byte[] bytes, int nth) {
        for (int i = 0, seen = 0; i <= bytes.length - MAGIC.length; i++) {
            if (Arrays.equals(bytes, i, i + MAGIC.length, MAGIC, 0, MAGIC.length) && seen++ == nth) {
                return i;
            }
        }
        throw new AssertionError("no header magic number " + nth);
    }
}

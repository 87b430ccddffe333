package io.bloomstore.segmented;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A region header that is valid on its own (its CRC32C matches) but gives the region another
 * shape than its place in the file: the damage opening and {@code verify} must catch.
 */
final class ForgedRegionHeader {
    private ForgedRegionHeader() {
    }

    /**
     * Overwrites region {@code region}'s header in a segmented file's {@code bytes} with one for
     * {@code shape}'s cells, n and p, and one more hash.
     *
     * @return the forged shape
     */
    static BloomSpec withOneMoreHash(byte[] bytes, int region, BloomSpec shape) {
        BloomSpec other = BloomSpec.builder().cells(shape.cells()).hashes(shape.hashes() + 1).layout(shape.layout())
                .seed(shape.seed()).expectedKeys(shape.expectedKeys()).fpp(shape.targetFpp()).build();
        write(bytes, region, other);
        return other;
    }

    /** Overwrites region {@code region}'s header in a segmented file's {@code bytes} with a valid one for {@code spec}. */
    static void write(byte[] bytes, int region, BloomSpec spec) {
        byte[] header = FilterHeader.unbound(spec, 0, false).encode();
        System.arraycopy(header, 0, bytes, (int) regionOffset(bytes, region), header.length);
    }

    /** Where region {@code region} starts, as the file's table says. */
    static long regionOffset(byte[] bytes, int region) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(ContainerDescriptor.TABLE_OFFSET
                + region * ContainerDescriptor.ENTRY_LENGTH + ContainerDescriptor.ENTRY_REGION_OFFSET_OFFSET);
    }
}

package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.testing.Layering;
import java.util.List;
import org.junit.jupiter.api.Test;

/** store-core keeps the layering its package-info files state ({@link Layering#RULES}). */
class LayeringTest {
    @Test
    void everyPackageUsesOnlyThePackagesItMay() {
        assertEquals(List.of(), Layering.violations(BloomFilter.class));
    }
}

package io.bloomstore.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.testing.Layering;
import java.util.List;
import org.junit.jupiter.api.Test;

/** store-spark uses the core's public API only (package-info), as {@link Layering#RULES} states it. */
class LayeringTest {
    @Test
    void sparkUsesOnlyThePublicApi() {
        assertEquals(List.of(), Layering.violations(BloomstoreSpark.class));
    }
}

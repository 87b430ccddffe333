package io.bloomstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.testing.Layering;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bench keeps to the layering of {@link Layering#RULES}: the public API, and of the internals only the sizing math. */
class LayeringTest {
    @Test
    void benchUsesOnlyWhatItMay() {
        assertEquals(List.of(), Layering.violations(BenchJvm.class));
    }
}

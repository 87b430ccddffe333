package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.testing.Layering;
import java.util.List;
import org.junit.jupiter.api.Test;

/** store-server uses the core's public API only (package-info), as {@link Layering#RULES} states it. */
class LayeringTest {
    @Test
    void theServerUsesOnlyThePublicApi() {
        assertEquals(List.of(), Layering.violations(BloomServer.class));
    }
}

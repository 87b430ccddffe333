package io.bloomstore.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The checker behind every module's layering test finds what it must, so that those tests cannot pass vacuously. */
class LayeringSelfTest {
    @Test
    void theScanFindsTheTypesAClassUses() throws IOException {
        try (InputStream in = BloomFilter.class.getResourceAsStream("BloomFilter.class")) {
            Set<String> used = Layering.typesNamedIn(in.readAllBytes());
            assertTrue(used.contains("io/bloomstore/internal/cells/CellArray"), used.toString());
            assertTrue(used.contains("io/bloomstore/BloomSpec"), used.toString());
        }
    }

    @Test
    void nodesSplitThePublicPackageIntoValuesAndTheRest() {
        assertEquals("values", Layering.node("io/bloomstore/BloomSpec$Builder"));
        assertEquals("api", Layering.node("io/bloomstore/BloomFilter"));
        assertEquals("internal.math", Layering.node("io/bloomstore/internal/math/FalsePositiveMath"));
        assertEquals("bench.report", Layering.node("io/bloomstore/bench/report/BenchReport"));
        assertEquals("net.openhft", Layering.node("net/openhft/chronicle/bytes/BytesStore"));
    }

    @Test
    void aCycleIsFoundWithItsPath() {
        Map<String, Map<String, Set<String>>> graph = Map.of(
                "a", Map.of("b", Set.of("a/A")),
                "b", Map.of("c", Set.of("b/B")),
                "c", Map.of("a", Set.of("c/C"), "c", Set.of("c/C")));
        assertEquals(1, Layering.cycles(graph).size(), Layering.cycles(graph).toString());
        assertEquals(4, Layering.cycles(graph).get(0).size());
        assertEquals(List.of(), Layering.cycles(Map.of("a", Map.of("b", Set.of("a/A")), "b", Map.of("b", Set.of("b/B")))));
    }

    @Test
    void eachRuleNamesOnlyNodesAboveItSoTheRulesHaveNoCycle() {
        List<String> above = new ArrayList<>(List.of("net.openhft"));
        Layering.rules().forEach((node, allowed) -> {
            List<String> below = allowed.stream().filter(name -> !above.contains(name) && !name.equals(node)).toList();
            assertEquals(List.of(), below, node + " may use nodes that are not above it");
            above.add(node);
        });
    }
}

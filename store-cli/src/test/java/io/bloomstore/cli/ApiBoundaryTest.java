package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.testing.Layering;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CLI is a client of the library's public API (package-info) and of its unsupported
 * {@code io.bloomstore.tools}: no compiled class of {@code io.bloomstore.cli} may name a type of
 * {@code io.bloomstore.internal} or of Chronicle ({@code net.openhft}). The rule is the line
 * {@code cli} of {@link Layering#RULES}, checked on the class files the build made; what a verb
 * needs that the API lacks goes into the API if users need it too, else into {@code tools}.
 */
class ApiBoundaryTest {
    @Test
    void noCliClassRefersToAnInternalOrChronicleType() {
        assertEquals(List.of(), Layering.violations(BloomstoreCli.class));
    }
}

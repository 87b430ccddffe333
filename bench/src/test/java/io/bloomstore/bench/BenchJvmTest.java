package io.bloomstore.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchJvmTest {
    /**
     * Surefire starts this JVM with the parent pom's argLine, built from the same properties as
     * the filtered resource: every flag handed to forks must be one this JVM got from the pom.
     */
    @Test
    void forkFlagsAreThePomFlags() {
        List<String> pomFlags = ManagementFactory.getRuntimeMXBean().getInputArguments();
        List<String> forkFlags = BenchJvm.flags();
        assertTrue(forkFlags.contains("--add-exports=java.base/sun.nio.ch=ALL-UNNAMED"), forkFlags.toString());
        for (String flag : forkFlags) {
            assertTrue(pomFlags.contains(flag), flag + " is not in surefire's argLine " + pomFlags);
        }
    }

    @Test
    void modernFlagsOnlyForJdk23AndLater() {
        assertFalse(BenchJvm.flagsFor(17).stream().anyMatch(f -> f.startsWith("--sun-misc-unsafe-memory-access")));
        assertTrue(BenchJvm.flagsFor(25).containsAll(BenchJvm.flagsFor(17)));
        // whatever JDK built the jar: a jar built on 17 still quiets a JDK 25 fork
        assertTrue(BenchJvm.flagsFor(25).contains("--sun-misc-unsafe-memory-access=allow"), BenchJvm.flagsFor(25).toString());
    }
}

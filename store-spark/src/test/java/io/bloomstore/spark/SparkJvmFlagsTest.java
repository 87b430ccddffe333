package io.bloomstore.spark;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Spark's JVM flags are written once, in the parent pom ({@code spark.jvm.flags}): this test JVM
 * was started with them, and docs/SCALE-OUT.md quotes every one for users who start Spark
 * themselves.
 */
class SparkJvmFlagsTest {
    private static List<String> pomFlags() {
        String flags = System.getProperty("spark.jvm.flags");
        assertNotNull(flags, "surefire passes spark.jvm.flags from the parent pom");
        return Arrays.stream(flags.trim().split("\\s+")).toList();
    }

    @Test
    void theTestJvmRunsWithThem() {
        List<String> arguments = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (String flag : pomFlags()) {
            assertTrue(arguments.contains(flag), "the test JVM lacks " + flag);
        }
    }

    @Test
    void scaleOutDocQuotesThem() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "SCALE-OUT.md"));
        for (String flag : pomFlags()) {
            assertTrue(doc.contains(flag), "docs/SCALE-OUT.md does not quote " + flag);
        }
    }
}

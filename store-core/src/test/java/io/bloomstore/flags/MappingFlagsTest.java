package io.bloomstore.flags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which JVM flags a library user needs, and when: a JVM started without them is refused before
 * anything is created, in a message that names the missing flags (it used to fail with an
 * AssertionError from inside Chronicle, after writing the file). Each case is a child JVM given a
 * subset of the flags, creating a sparse filter (no disk space used) just below or above the
 * size where the second way of mapping begins: a file longer than 2 GiB - 1 byte.
 */
class MappingFlagsTest {
    private static final String OPENS = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    private static final String SUN_NIO_CH = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    private static final String INTERNAL_REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    /** The largest file the JDK maps in one buffer: 4 KiB of header and 2 GiB - 8 KiB of cells, 2 GiB - 4 KiB in all. */
    private static final long LARGEST_JDK_MAPPED_CELLS = ((1L << 31) - 8192) * 8;
    /** One page of cells more: a file of exactly 2 GiB, mapped by Chronicle itself. */
    private static final long SMALLEST_CHRONICLE_MAPPED_CELLS = LARGEST_JDK_MAPPED_CELLS + 4096 * 8;

    @TempDir
    Path dir;

    @Test
    void withoutAnyFlagNothingIsCreatedAndTheMessageNamesTheTwoExports() throws Exception {
        String said = create(List.of(), 1_000_000);
        assertTrue(said.startsWith("refused: ") && said.contains(SUN_NIO_CH) && said.contains(INTERNAL_REF)
                && !said.contains(OPENS) && said.contains("README"), said);
        assertEquals(List.of(), filesIn(dir), "nothing created, no temporary");
    }

    @Test
    void theTwoExportsMapUpTo2GiBAndTheOpensIsNeededAbove() throws Exception {
        assertEquals("created " + (1L << 31), create(List.of(SUN_NIO_CH, INTERNAL_REF, OPENS),
                SMALLEST_CHRONICLE_MAPPED_CELLS), "all three flags: a file of 2 GiB");
        assertEquals("created " + ((1L << 31) - 4096), create(List.of(SUN_NIO_CH, INTERNAL_REF), LARGEST_JDK_MAPPED_CELLS),
                "the exports alone: a file of 2 GiB - 4 KiB");

        String said = create(List.of(SUN_NIO_CH, INTERNAL_REF), SMALLEST_CHRONICLE_MAPPED_CELLS);
        assertTrue(said.startsWith("refused: ") && said.contains("this JVM was started without " + OPENS + " (")
                && !said.contains(SUN_NIO_CH), said);
        assertEquals(List.of(), filesIn(dir), "nothing created, no temporary");
    }

    /**
     * Runs {@link SparseCreator} in a JVM with only {@code flags} (and, on JDK 23+, the flags that
     * keep it quiet), and returns what it printed; deletes the file it made.
     */
    private String create(List<String> flags, long cells) throws Exception {
        Path file = dir.resolve("f.bloom");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(flags);
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(flag -> flag.startsWith("--enable-native-access") || flag.startsWith("--sun-misc-unsafe"))
                .forEach(command::add);
        command.addAll(List.of("-Xmx64m", "-cp", System.getProperty("java.class.path"), SparseCreator.class.getName(),
                file.toString(), Long.toString(cells)));
        Path err = Files.createTempFile("mapping-flags", ".stderr");
        try {
            Process child = new ProcessBuilder(command).redirectError(err.toFile()).start();
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not end");
            assertEquals(0, child.exitValue(), out + "\n" + Files.readString(err));
            Files.deleteIfExists(file);
            return out;
        } finally {
            Files.delete(err);
        }
    }

    private static List<String> filesIn(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }
}

package io.bloomstore.tour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java tour is a complete program: this test takes it out of README.md as it is
 * written, compiles it against the library, runs it in a JVM of its own with the flags the README
 * lists, and checks what it prints: on stdout what the program says, on stderr nothing but what the
 * README's "Logging" says a program without an SLF4J binding gets (and nothing with slf4j-nop). If
 * the README's program stops compiling or says something else, this fails.
 */
class ApiTourTest {
    private static final Path README = Path.of("..", "README.md");

    @TempDir
    Path dir;

    @Test
    void theReadmesProgramCompilesAgainstTheLibraryAndRunsAsItSays() throws Exception {
        Path source = Files.createDirectories(dir.resolve("src")).resolve("Tour.java");
        Files.writeString(source, javaBlockAfter("## The Java API", "public class Tour"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, diagnostics, diagnostics, "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"), source.toString());
        assertEquals(0, status, "the README's program does not compile:\n" + diagnostics);

        List<String> flags = readmeFlags();
        String classPath = System.getProperty("java.class.path");
        String withoutBinding = Stream.of(classPath.split(File.pathSeparator))
                .filter(entry -> !entry.contains("slf4j-nop")).collect(Collectors.joining(File.pathSeparator));
        assertTrue(withoutBinding.length() < classPath.length(), "the tests have slf4j-nop to leave out: " + classPath);

        Run plain = runMain(flags, classes, withoutBinding, dir.resolve("tour"));
        assertEquals(List.of(
                "order-42 new: true",
                "order-7 seen: false",
                "count of 123: 1",
                "removed 123: true",
                "carol in the union: true",
                "restored bit for bit: true",
                "segments after 10x its first size: 4",
                "session-9 new today: true"), plain.out().lines().toList());
        // A program with no SLF4J binding: SLF4J's own notice, as the README quotes it, and nothing else.
        assertEquals(List.of(
                "SLF4J(W): No SLF4J providers were found.",
                "SLF4J(W): Defaulting to no-operation (NOP) logger implementation",
                "SLF4J(W): See https://www.slf4j.org/codes.html#noProviders for further details."),
                plain.err().lines().toList());
        assertTrue(Files.readString(README).contains("`SLF4J(W): No SLF4J providers were found.`"));

        Run silenced = runMain(flags, classes, classPath, dir.resolve("tour-again"));
        assertEquals(plain.out(), silenced.out());
        assertEquals("", silenced.err(), "with slf4j-nop, as the README advises, stderr stays empty");
    }

    @Test
    void theReadmeSaysHowToGetTheLibrary() throws Exception {
        String dependency = javaBlockAfter("## The Java API", "<artifactId>store-core</artifactId>");
        assertTrue(dependency.contains("<groupId>io.bloomstore</groupId>"), dependency);
    }

    /** The first fenced block after {@code heading} that contains {@code marker}. */
    private static String javaBlockAfter(String heading, String marker) throws Exception {
        String readme = Files.readString(README);
        String section = readme.substring(readme.indexOf(heading));
        Matcher block = Pattern.compile("```\\w*\\n(.*?)```", Pattern.DOTALL).matcher(section);
        while (block.find()) {
            if (block.group(1).contains(marker)) {
                return block.group(1);
            }
        }
        throw new AssertionError("README.md has no block with " + marker + " after " + heading);
    }

    /** The flags the README's "JVM flags" lists, with the JDK 23+ pair on a JDK 23+. */
    private static List<String> readmeFlags() throws Exception {
        String readme = Files.readString(README);
        String section = readme.substring(readme.indexOf("### JVM flags"));
        Matcher quoted = Pattern.compile("`(--[^`]+)`").matcher(section);
        List<String> flags = new ArrayList<>();
        assertTrue(quoted.find(), "no flags quoted under ### JVM flags");
        flags.addAll(List.of(quoted.group(1).split(" ")));
        assertTrue(quoted.find(), "no JDK 23+ flags quoted under ### JVM flags");
        if (Runtime.version().feature() >= 23) {
            flags.addAll(List.of(quoted.group(1).split(" ")));
        }
        return flags;
    }

    /** What a run printed. */
    private record Run(String out, String err) {
    }

    /**
     * Runs {@code Tour} from {@code classes} as a user would, in a JVM of its own with the README's
     * flags and {@code classPath}, and returns what it printed.
     */
    private static Run runMain(List<String> flags, Path classes, String classPath, Path workDir) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(flags);
        command.addAll(List.of("-cp", classes + File.pathSeparator + classPath, "Tour", workDir.toString()));
        Path err = Files.createTempFile(workDir.getParent(), "tour", ".stderr");
        Process tour = new ProcessBuilder(command).redirectError(err.toFile()).start();
        String out = new String(tour.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(tour.waitFor(120, TimeUnit.SECONDS), "the tour did not end");
        String printed = Files.readString(err);
        assertEquals(0, tour.exitValue(), out + printed);
        return new Run(out, printed);
    }
}

package io.bloomstore.tour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
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

    /** What the README's program prints. */
    private static final List<String> OUTPUT = List.of(
            "order-42 new: true",
            "order-7 seen: false",
            "count of 123: 1",
            "removed 123: true",
            "carol in the union: true",
            "restored bit for bit: true",
            "segments after 10x its first size: 4",
            "session-9 new today: true",
            "bytes for Parquet: 262161");

    /** A build of store-core, its Javadoc and the program, in a JVM of their own: generous, for a loaded machine. */
    private static final long COMMANDS_TIMEOUT_MINUTES = 10;

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
        assertEquals(OUTPUT, plain.out().lines().toList());
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

    /**
     * The README's commands for running the program, taken out of README.md as written and run by
     * bash from the root of a fresh copy of the repository, with the program saved there as the
     * README says: the files git has or would add (as a clone of the next commit holds them), no
     * target folders, nothing installed into the local Maven repository, and a space in the path.
     * They build store-core, write its class path and run the program, which prints what it says.
     * Maven runs as the README has it; it reads the local repository and writes only in the copy.
     */
    @Test
    void theReadmesCommandsRunTheProgramFromTheRootOfAFreshCopy() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Run listed = run(new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
                .directory(root.toFile()));
        assumeTrue(listed.exit() == 0, () -> "not a git checkout, so no fresh copy to make: " + listed.err());
        Path copy = dir.resolve("fresh checkout");
        // distinct: during a merge, a conflicted file is listed once a stage
        for (String name : Arrays.stream(listed.out().split("\0")).distinct().toList()) {
            Path source = root.resolve(name);
            if (!name.isEmpty() && Files.isRegularFile(source)) { // a file deleted but not yet staged is not copied
                Files.createDirectories(copy.resolve(name).getParent());
                Files.copy(source, copy.resolve(name), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        Files.writeString(copy.resolve("Tour.java"), javaBlockAfter("## The Java API", "public class Tour"));

        ProcessBuilder commands = new ProcessBuilder("bash", "-e", "-o", "pipefail", "-c",
                javaBlockAfter("## The Java API", "dependency:build-classpath")).directory(copy.toFile());
        Path java = Path.of(System.getProperty("java.home"));
        commands.environment().put("JAVA_HOME", java.toString());
        commands.environment().put("PATH", java.resolve("bin") + File.pathSeparator + System.getenv("PATH"));
        Run ran = run(commands);
        assertEquals(0, ran.exit(), ran.out() + ran.err());
        // Maven 3.8 prints colour resets (ESC[0m) on stdout even when quiet: what a terminal shows as nothing
        List<String> shown = ran.out().replaceAll("\u001b\\[[0-9;]*m", "").lines().filter(line -> !line.isBlank()).toList();
        assertEquals(OUTPUT, shown, ran.err());
        assertTrue(Files.isRegularFile(copy.resolve("store-core/target/reports/apidocs/index.html")),
                "the Javadoc is where the README says");
    }

    /** Runs {@code command} with no input and returns its exit status and what it printed. */
    private static Run run(ProcessBuilder command) throws Exception {
        Path err = Files.createTempFile("commands", ".stderr");
        try {
            Process process = command.redirectError(err.toFile()).start();
            process.getOutputStream().close();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(COMMANDS_TIMEOUT_MINUTES, TimeUnit.MINUTES), "did not end: " + command.command());
            return new Run(process.exitValue(), out, Files.readString(err));
        } finally {
            Files.delete(err);
        }
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
    private record Run(int exit, String out, String err) {
    }

    /**
     * Runs {@code Tour} from {@code classes} as a user would, in a JVM of its own with the README's
     * flags and {@code classPath}, and returns what it printed.
     */
    private static Run runMain(List<String> flags, Path classes, String classPath, Path workDir) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(flags);
        command.addAll(List.of("-cp", classes + File.pathSeparator + classPath, "Tour", workDir.toString()));
        Run tour = run(new ProcessBuilder(command));
        assertEquals(0, tour.exit(), tour.out() + tour.err());
        return tour;
    }
}

package io.bloomstore.tour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java tour is a complete program: this test takes it out of README.md as it is
 * written, compiles it against the library, runs it, and checks what it prints. If the README's
 * program stops compiling or says something else, this fails.
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

        String printed = runMain(classes, dir.resolve("tour"));
        assertEquals(List.of(
                "order-42 new: true",
                "order-7 seen: false",
                "count of 123: 1",
                "removed 123: true",
                "carol in the union: true",
                "restored bit for bit: true",
                "segments after 10x its first size: 4",
                "session-9 new today: true"), printed.lines().toList());
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

    /** Runs {@code Tour.main(workDir)} from {@code classes} in this JVM (it has the mapping flags) and returns its output. */
    private static String runMain(Path classes, Path workDir) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                ApiTourTest.class.getClassLoader())) {
            Method main = loader.loadClass("Tour").getMethod("main", String[].class);
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[] {workDir.toString()});
        } finally {
            System.setOut(original);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}

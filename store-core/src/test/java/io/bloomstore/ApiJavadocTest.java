package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.DocumentationTool;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The public API's Javadoc, run with every doclint check: it builds without an error or a warning,
 * so every public class, method and field has a comment, every parameter, return value and thrown
 * exception a tag, and every reference and every bit of HTML in them is right. The build's own
 * Javadoc (maven-javadoc-plugin, package phase) checks the same; this test runs it with the tests,
 * on the JDK that runs them (a newer JDK's doclint checks more).
 */
class ApiJavadocTest {
    private static final Path SOURCES = Path.of("src", "main", "java");

    @TempDir
    Path out;

    @Test
    void doclintFindsNothingInThePublicApi() throws Exception {
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        StringWriter log = new StringWriter();
        List<String> args = List.of("-Xdoclint:all", "-Xmaxwarns", "10000", "-quiet", "-d", out.toString(),
                "--class-path", System.getProperty("java.class.path"), "--source-path", SOURCES.toString(),
                "io.bloomstore");
        boolean built = javadoc.getTask(log, null, null, null, args, null).call();
        List<String> problems;
        try (Stream<String> lines = log.toString().lines()) {
            problems = lines.filter(line -> line.contains(": warning: ") || line.contains(": error: "))
                    .collect(Collectors.toList());
        }
        assertEquals(List.of(), problems, log.toString());
        assertEquals(true, built, log.toString());
        assertEquals(true, Files.exists(out.resolve("index.html")));
    }
}

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
 * The public API's Javadoc, run with every doclint check: it builds without an error, and the only
 * warnings are the missing @param / @return / @throws tags that the build's Javadoc leaves out on
 * purpose (store-core's pom says why); so every public class, method and field has a comment, and
 * every reference and every bit of HTML in them is right. The build's own Javadoc (maven-javadoc-plugin,
 * package phase) fails on any warning of the other groups; this test also holds the "no comment" line.
 */
class ApiJavadocTest {
    private static final Path SOURCES = Path.of("src", "main", "java");

    @TempDir
    Path out;

    @Test
    void everyPublicElementHasACommentAndDoclintFindsNothingElse() throws Exception {
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        StringWriter log = new StringWriter();
        List<String> args = List.of("-Xdoclint:all", "-Xmaxwarns", "10000", "-quiet", "-d", out.toString(),
                "--class-path", System.getProperty("java.class.path"), "--source-path", SOURCES.toString(),
                "io.bloomstore");
        boolean built = javadoc.getTask(log, null, null, null, args, null).call();
        List<String> problems;
        try (Stream<String> lines = log.toString().lines()) {
            problems = lines.filter(line -> line.contains(": warning: ") || line.contains(": error: "))
                    .filter(line -> !line.matches(".*: warning: no @(param|return|throws) .*")
                            && !line.endsWith(": warning: no @return"))
                    .collect(Collectors.toList());
        }
        assertEquals(List.of(), problems, log.toString());
        assertEquals(true, built, log.toString());
        assertEquals(true, Files.exists(out.resolve("index.html")));
    }
}

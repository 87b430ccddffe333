package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On JDK 25+, bin/bloomstore runs a command that reads keys with an AOT cache made on first use from
 * the training run, and a short run (every key on the command line) with the class-data sharing
 * archive. Needs a JDK 25+ under /usr/lib/jvm (or {@code bloomstore.jdk25}); the JDK 17 path is
 * {@code KeysAndLauncherIT}'s.
 */
class AotCacheIT {
    private static final Path LAUNCHER = Path.of(System.getProperty("bloomstore.launcher", "../bin/bloomstore")).toAbsolutePath();
    private static final Pattern RUNTIME_VERSION = Pattern.compile("(?m)^JAVA_RUNTIME_VERSION=\"((\\d+)[^\"]*)\"$");
    /** What the JVM logs (-Xlog:aot=info) when it maps a cache with linked classes, and when it maps the plain archive. */
    private static final String CACHE_USED = "Using AOT-linked classes: true";
    private static final String ARCHIVE_USED = "Using AOT-linked classes: false (static archive: no aot-linked classes)";

    @TempDir
    Path dir;

    @Test
    void aRunReadingKeysUsesTheCacheAndAShortRunTheArchive() throws Exception {
        Optional<Path> jdk = jdk25();
        assumeTrue(jdk.isPresent(), "no JDK 25 or later under /usr/lib/jvm");
        String version = runtimeVersion(jdk.get()).orElseThrow();
        Files.write(dir.resolve("keys.txt"), "alice\nbob\ncarol\n".getBytes(StandardCharsets.UTF_8));

        JarProcess.Result build = launch(jdk.get(), "build", "k.bloom", "--from", "keys.txt", "--expected", "100",
                "--fpp", "0.01");
        assertEquals(0, build.exit(), build.stdout() + build.err());
        assertTrue(build.stdout().contains(CACHE_USED), build.stdout());
        Path cache = JarProcess.JAR.resolveSibling("bloomstore-" + version + ".aot");
        assertTrue(Files.isRegularFile(cache), "an AOT cache for this JVM: " + cache);
        assertTrue(Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(JarProcess.JAR)) >= 0,
                "the cache is the jar's, not an older one's");

        JarProcess.Result query = launch(jdk.get(), "contains", "k.bloom", "alice");
        assertEquals(0, query.exit(), query.stdout() + query.err());
        assertTrue(query.stdout().contains(ARCHIVE_USED), query.stdout());
        assertTrue(query.stdout().contains("alice\tpresent"), query.stdout());
    }

    /** Runs the launcher with {@code jdk} and the JVM's log of what it mapped on stdout. */
    private JarProcess.Result launch(Path jdk, String... args) {
        ProcessBuilder builder = new ProcessBuilder(Stream.concat(Stream.of(LAUNCHER.toString()), Stream.of(args))
                .toArray(String[]::new));
        builder.environment().put("JAVA_HOME", jdk.toString());
        builder.environment().put("BLOOMSTORE_JAVA_OPTS", "-Xlog:aot=info");
        return JarProcess.run(builder, dir, new byte[0]);
    }

    private static Optional<Path> jdk25() throws IOException {
        String given = System.getProperty("bloomstore.jdk25");
        if (given != null) {
            return Optional.of(Path.of(given));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(home -> Files.isExecutable(home.resolve("bin/java")))
                    .filter(home -> runtimeVersion(home).map(v -> Integer.parseInt(v.split("[.+-]")[0]) >= 25).orElse(false))
                    .findFirst();
        }
    }

    /** The JDK's JAVA_RUNTIME_VERSION, from its release file, as the launcher reads it. */
    private static Optional<String> runtimeVersion(Path home) {
        try {
            Matcher version = RUNTIME_VERSION.matcher(Files.readString(home.resolve("release"), StandardCharsets.UTF_8));
            return version.find() ? Optional.of(version.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}

package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys typed on the command line are their exact bytes, whatever the locale; bin/bloomstore runs the jar. */
class KeysAndLauncherIT {
    private static final Path LAUNCHER = Path.of(System.getProperty("bloomstore.launcher", "../bin/bloomstore")).toAbsolutePath();

    @TempDir
    Path dir;
    /** The launcher's cache folder ({@code XDG_CACHE_HOME}), so that no test writes in the user's. */
    @TempDir
    Path cache;

    @Test
    void argumentsAreTheBytesTypedEvenUnderThePosixLocale() throws Exception {
        byte[] invalidUtf8 = {'k', (byte) 0xff, (byte) 0xfe};
        byte[] file = ("café\n" + "x").getBytes(StandardCharsets.UTF_8);
        byte[] keys = new byte[file.length + 1 + invalidUtf8.length];
        System.arraycopy(file, 0, keys, 0, file.length);
        keys[file.length] = '\n';
        System.arraycopy(invalidUtf8, 0, keys, file.length + 1, invalidUtf8.length);
        Files.write(dir.resolve("keys.txt"), keys);
        run(dir, "build", "k.bloom", "--from", "keys.txt", "--expected", "100", "--fpp", "1e-9").assertOk();

        // bash passes $'\xff\xfe' as raw bytes, which no Java String can carry to a child process
        String script = "exec " + JarProcess.shellCommand("contains", "k.bloom", "café") + " $'k\\xff\\xfe' x";
        for (String locale : List.of("C", "C.UTF-8")) {
            ProcessBuilder shell = new ProcessBuilder("bash", "-c", script);
            shell.environment().put("LC_ALL", locale);
            JarProcess.Result result = JarProcess.run(shell, dir, new byte[0]);
            assertEquals(0, result.exit(), locale + ": " + result.stdout() + result.err());
            assertEquals(3, result.stdout().split("\n").length, result.stdout());
        }
        assertEquals(1, run(dir, "contains", "-q", "k.bloom", "cafe").exit());
    }

    /**
     * The launcher runs the jar with its class-data sharing archive, and the tool's own classes come
     * from it: from this checkout, and from one whose path has a space, where JDK 17 leaves them out
     * of an archive made at that path, so the launcher runs a copy of the jar from its cache folder.
     */
    @Test
    void theLauncherLoadsTheToolsClassesFromItsArchiveWhereverTheCheckoutIs() throws Exception {
        Path spaced = dir.resolve("checkout with spaces");
        Path spacedLauncher = Files.createDirectories(spaced.resolve("bin")).resolve("bloomstore");
        Files.copy(LAUNCHER, spacedLauncher, StandardCopyOption.COPY_ATTRIBUTES);
        Path spacedJar = Files.createDirectories(spaced.resolve("store-cli/target")).resolve("bloomstore.jar");
        Files.copy(JarProcess.JAR, spacedJar, StandardCopyOption.COPY_ATTRIBUTES);

        for (Path launcher : List.of(LAUNCHER, spacedLauncher)) {
            ProcessBuilder create = new ProcessBuilder(launcher.toString(), "create", "l.bloom", "--expected", "10",
                    "--fpp", "0.1", "--force");
            create.environment().put("JAVA_HOME", System.getProperty("java.home"));
            create.environment().put("XDG_CACHE_HOME", cache.toString());
            create.environment().put("BLOOMSTORE_JAVA_OPTS", "-Xlog:class+load=info");
            JarProcess.Result created = JarProcess.run(create, dir, new byte[0]);
            assertEquals(0, created.exit(), created.err());
            assertTrue(Files.isRegularFile(dir.resolve("l.bloom")));
            assertTrue(created.stdout().contains(" io.bloomstore.cli.BloomstoreCli source: shared objects file"),
                    launcher + ": the tool's classes are not from the archive:\n" + created.stdout().lines()
                            .filter(line -> line.contains("io.bloomstore.cli.BloomstoreCli")).toList());
        }
    }

    /**
     * The launcher's first use builds the jar with Maven, which prints colour codes (ESC[0m) even
     * in batch mode: none reaches the user, whether the build succeeds (Maven's output is not shown)
     * or fails (shown, stripped of them). A stand-in for mvn, first on the PATH, prints what Maven
     * prints and makes the jar, or fails, in a copy of the launcher's tree.
     */
    @Test
    void theLaunchersFirstBuildLeaksNoColourCodes() throws Exception {
        Path root = dir.resolve("checkout with spaces");
        Path launcher = Files.createDirectories(root.resolve("bin")).resolve("bloomstore");
        Files.copy(LAUNCHER, launcher);
        Path tools = Files.createDirectories(dir.resolve("tools"));
        Path mvn = tools.resolve("mvn");
        Files.writeString(mvn, """
                #!/usr/bin/env bash
                printf '\\e[0m\\e[0m'
                printf '\\e[0m\\e[1;31m[ERROR]\\e[m %s\\n' "$FAKE_MVN_ERROR" >&2
                [[ -z $FAKE_MVN_ERROR ]] || exit 1
                mkdir -p store-cli/target && cp "$FAKE_MVN_JAR" store-cli/target/bloomstore.jar
                """);
        Files.setPosixFilePermissions(mvn, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));

        JarProcess.Result failed = firstUse(launcher, tools, "the build broke");
        assertEquals(2, failed.exit(), failed.err());
        assertEquals(List.of("bloomstore: building " + root.resolve("store-cli/target/bloomstore.jar") + " (first use)...",
                "[ERROR] the build broke",
                "bloomstore: the build failed; run 'mvn -pl store-cli -am package' in " + root + " to see why"),
                failed.err().lines().toList());

        JarProcess.Result built = firstUse(launcher, tools, "");
        assertEquals(0, built.exit(), built.err());
        assertTrue(built.stdout().startsWith("bloomstore "), built.stdout());
        assertEquals("bloomstore: building " + root.resolve("store-cli/target/bloomstore.jar") + " (first use)...\n",
                built.err());
    }

    private JarProcess.Result firstUse(Path launcher, Path tools, String mavenError) {
        ProcessBuilder version = new ProcessBuilder(launcher.toString(), "--version");
        version.environment().put("JAVA_HOME", System.getProperty("java.home"));
        version.environment().put("PATH", tools + ":" + System.getenv("PATH"));
        version.environment().put("FAKE_MVN_JAR", JarProcess.JAR.toString());
        version.environment().put("XDG_CACHE_HOME", cache.toString());
        version.environment().put("FAKE_MVN_ERROR", mavenError);
        return JarProcess.run(version, dir, new byte[0]);
    }
}

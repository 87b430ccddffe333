package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Runs the shaded jar as users do, {@code java -jar bloomstore.jar ARGS}, in a working folder, and
 * collects its exit status and output. The jar is the one the build just made (failsafe passes its
 * path); on JDK 23+ the parent pom's JDK 23+ flags, which bin/bloomstore adds too, are added here,
 * to keep stderr free of the JVM's own warnings.
 *
 * <p>The ITs start this jar about a thousand times, so each start gets the start-up flags
 * bin/bloomstore gives it (io.bloomstore.cli's package-info, "Start-up time"): the class-data
 * sharing archive the build made for this JVM (where the jar's path has a space, a copy of the jar
 * with an archive of its own, as the launcher does: {@link RunnableJar}), and no perf-data file. A run that reads no keys
 * from a file or stdin (no {@code --from}, no {@code -}, not {@code dedup}) is a JVM start and
 * little work, and gets only the C1 compiler as well, as the launcher's short runs do; a run that
 * streams keys keeps the tiered compiler, so its hot loops are compiled as in a user's run
 * (FileChangedUnderCommandIT needs them so). Both cut the CPU a start costs, which is what a
 * loaded machine lacks.
 */
final class JarProcess {
    static final Path JAR = Path.of(System.getProperty("bloomstore.jar", "target/bloomstore.jar")).toAbsolutePath();
    private static final String RUNTIME_VERSION = System.getProperty("java.runtime.version");
    /** A path that JDK 17's class-data sharing takes as it is: nothing that a file: URL escapes. */
    private static final Pattern CDS_SAFE_PATH = Pattern.compile("[A-Za-z0-9._/+-]*");
    /** The jar the runs start, and the class-data sharing archive they map. */
    private static final RunnableJar RUN = RunnableJar.forThisJvm();
    /**
     * A bound on one run, there to end a hung run rather than to time it: generous, for a machine at
     * load 20, where the launcher's first use (a class-data sharing archive's training run and dump)
     * took over a minute.
     */
    private static final long TIMEOUT_SECONDS = 300;
    private static final ExecutorService READERS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "jar-output-reader");
        thread.setDaemon(true);
        return thread;
    });

    /** What a run did. */
    record Result(int exit, byte[] out, String err) {
        String stdout() {
            return new String(out, StandardCharsets.UTF_8);
        }

        /** Asserts a failed run: this exit status, nothing on stdout, one line on stderr that starts "bloomstore: ". */
        Result assertError(int expectedExit) {
            assertEquals(expectedExit, exit, err);
            assertEquals("", stdout());
            assertTrue(err.startsWith("bloomstore: ") && err.endsWith("\n") && err.indexOf('\n') == err.length() - 1,
                    "one line on stderr: " + err);
            return this;
        }

        /** Asserts success and an empty stderr. */
        Result assertOk() {
            assertEquals(0, exit, err);
            assertEquals("", err);
            return this;
        }
    }

    private JarProcess() {
    }

    /**
     * The jar the runs start and its archive: the build's jar and the archive the build dumped for
     * the JVM that builds (store-cli/pom.xml, named as bin/bloomstore names it); or, where the jar's
     * path is not one JDK 17's class-data sharing can use (one with a space: bin/bloomstore says
     * why), a copy of the jar in a temporary folder of this JVM and an archive dumped there from
     * the build's class list, as the launcher runs such a jar from a copy. Should the copy or its
     * dump fail, the runs start the build's jar as it is, only slower.
     */
    private record RunnableJar(Path jar, Path archive) {
        static RunnableJar forThisJvm() {
            RunnableJar built = new RunnableJar(JAR, JAR.resolveSibling("bloomstore-" + RUNTIME_VERSION + ".jsa"));
            Path classList = JAR.resolveSibling("bloomstore-" + RUNTIME_VERSION + ".classlist");
            if (CDS_SAFE_PATH.matcher(JAR.toString()).matches() || Runtime.version().feature() >= 25
                    || !Files.isRegularFile(classList)) {
                return built;
            }
            try {
                Path folder = Files.createTempDirectory("bloomstore-jar");
                folder.toFile().deleteOnExit(); // after the files below: deleteOnExit deletes in reverse order
                if (!CDS_SAFE_PATH.matcher(folder.toString()).matches()) {
                    return built;
                }
                RunnableJar copy = new RunnableJar(folder.resolve(JAR.getFileName()), folder.resolve(built.archive.getFileName()));
                Files.copy(JAR, copy.jar, StandardCopyOption.COPY_ATTRIBUTES);
                copy.jar.toFile().deleteOnExit();
                copy.archive.toFile().deleteOnExit();
                List<String> dump = java();
                dump.addAll(List.of("-Xshare:dump", "-XX:SharedClassListFile=" + classList,
                        "-XX:SharedArchiveFile=" + copy.archive, "-Xlog:cds=off", "-cp", copy.jar.toString()));
                Process dumping = new ProcessBuilder(dump).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (!dumping.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    dumping.destroyForcibly(); // the runs then start without an archive
                }
                return copy;
            } catch (IOException e) {
                return built;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return built;
            }
        }
    }

    static List<String> command(String... args) {
        return command(JAR, args);
    }

    /** This JVM's java, with the parent pom's JDK 23+ flags on a JDK 23+: the start of every command line here. */
    private static List<String> java() {
        List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (Runtime.version().feature() >= 23) {
            java.addAll(JvmFlagsIT.pomFlags("bloomstore.jvm.flags.jdk23"));
        }
        return java;
    }

    /** {@link #command} with another copy of the jar (one another user can read, say). */
    static List<String> command(Path jar, String... args) {
        List<String> command = java();
        if (jar.equals(JAR)) {
            command.addAll(startUpFlags(args));
        }
        command.add("-jar");
        command.add((jar.equals(JAR) ? RUN.jar() : jar).toString());
        command.addAll(List.of(args));
        return command;
    }

    /**
     * The launcher's start-up flags for a run of this jar with {@code args}. The archive holds this
     * jar's path and time, so another copy of the jar runs without it; a missing archive (another
     * JVM than the build's) or a stale one is skipped by the JVM, silently with {@code -Xlog:cds=off}.
     */
    private static List<String> startUpFlags(String... args) {
        List<String> flags = new ArrayList<>(List.of("-XX:-UsePerfData"));
        if (Files.isRegularFile(RUN.archive())) {
            flags.addAll(List.of("-XX:SharedArchiveFile=" + RUN.archive(), "-Xlog:cds=off"));
        }
        boolean readsKeys = args.length > 0 && args[0].equals("dedup"); // which reads stdin without --from
        for (String arg : args) {
            readsKeys |= arg.equals("-") || arg.equals("--from") || arg.startsWith("--from=");
        }
        if (!readsKeys) {
            flags.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1"));
        }
        return flags;
    }

    /** {@link #command} as one shell word list, each word quoted: for a bash pipeline or redirection around the jar. */
    static String shellCommand(String... args) {
        return shellQuoted(command(args));
    }

    /** {@code words} quoted for bash, each as one word whatever it holds. */
    static String shellQuoted(List<String> words) {
        return words.stream().map(w -> "'" + w.replace("'", "'\\''") + "'").collect(Collectors.joining(" "));
    }

    static Result run(Path folder, String... args) {
        return run(folder, new byte[0], args);
    }

    static Result run(Path folder, byte[] stdin, String... args) {
        return run(new ProcessBuilder(command(args)), folder, stdin);
    }

    /** Runs any command line (a shell pipeline, the launcher) the same way. */
    static Result run(ProcessBuilder builder, Path folder, byte[] stdin) {
        try {
            Process process = start(builder, folder);
            CompletableFuture<byte[]> out = readAll(process.getInputStream());
            CompletableFuture<byte[]> err = readAll(process.getErrorStream());
            try (OutputStream in = process.getOutputStream()) {
                in.write(stdin);
            } catch (IOException e) {
                // the process may exit without reading its input; its exit status tells
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("timed out: " + builder.command());
            }
            return new Result(process.exitValue(), out.join(), new String(err.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Starts the jar with its standard streams as pipes, for tests that talk to it while it runs. */
    static Process start(Path folder, String... args) throws IOException {
        return start(new ProcessBuilder(command(args)), folder);
    }

    private static Process start(ProcessBuilder builder, Path folder) throws IOException {
        assertTrue(Files.isRegularFile(JAR), "run 'mvn verify' so the jar exists: " + JAR);
        return builder.directory(folder.toFile()).start();
    }

    static CompletableFuture<byte[]> readAll(InputStream stream) {
        // Own threads: the common pool may have a single thread, and stdout and stderr must drain at once.
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, READERS);
    }

    /** The names in {@code folder}, sorted: what a command left behind. */
    /**
     * Whether this JVM, and so every process it starts, ignores SIGINT: a non-interactive shell
     * starts its background jobs so ({@code .ci/run &} from a script), and a JVM that inherits an
     * ignored SIGINT keeps ignoring it, as a user who ran it so asked. Ctrl-C cannot be tested there.
     */
    static boolean sigintIgnored() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                long ignored = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
                return (ignored & 1L << (2 - 1)) != 0; // SIGINT is signal 2, bit 1
            }
        }
        return false;
    }

    static List<String> filesIn(Path folder) throws IOException {
        try (var files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}

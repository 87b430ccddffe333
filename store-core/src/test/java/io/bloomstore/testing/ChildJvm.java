package io.bloomstore.testing;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A separate JVM process running a {@code main} class of the test sources, for tests that need
 * real processes rather than threads (two processes mapping one file, a process killed with
 * SIGKILL).
 *
 * <p>The child gets the test JVM's classpath and the flags it needs to map files (the
 * {@code --add-opens}/{@code --add-exports} family and {@code -Dchronicle...}), so it behaves
 * like the test JVM. The conversation is line-based: the parent {@link #send sends} lines to the
 * child's stdin and {@link #readLine reads} lines from its stdout, which makes start-together
 * handshakes possible without sleeps (each child prints "ready", the parent then sends every child
 * its command). The child's stderr goes to a file and is quoted in every failure, so an exception
 * in the child shows up in the test report.
 */
public final class ChildJvm implements AutoCloseable {
    /** Flags of the test JVM that a child needs too; the rest (agents, debug ports) stay behind. */
    private static final List<String> INHERITED_FLAG_PREFIXES = List.of("--add-opens", "--add-exports", "--add-modules",
            "--enable-native-access", "--sun-misc-unsafe-memory-access", "-Dchronicle", "-DmappedFile");
    /** The end of stdout, queued after the last line. */
    private static final String END_OF_OUTPUT = new String("<end of output>");

    private final String name;
    private final Process process;
    private final Path stderrFile;
    private final BufferedWriter stdin;
    private final BlockingQueue<String> stdoutLines = new LinkedBlockingQueue<>();

    private ChildJvm(String name, Process process, Path stderrFile) {
        this.name = name;
        this.process = process;
        this.stderrFile = stderrFile;
        this.stdin = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        Thread pump = new Thread(this::pumpStdout, name + "-stdout");
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts {@code java mainClass args...} with the test JVM's classpath and mapping flags. */
    public static ChildJvm start(Class<?> mainClass, String... args) throws IOException {
        return start(List.of(), mainClass, args);
    }

    /** Starts {@code java jvmOptions mainClass args...}, as {@link #start(Class, String...)} with those options added. */
    public static ChildJvm start(List<String> jvmOptions, Class<?> mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(inheritedFlags());
        command.addAll(jvmOptions);
        // The filters live off-heap: a small heap and the serial collector start fastest.
        command.add("-Xmx128m");
        command.add("-XX:+UseSerialGC");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        Path stderrFile = Files.createTempFile("child-" + mainClass.getSimpleName() + "-", ".stderr");
        Process process = new ProcessBuilder(command)
                .redirectError(stderrFile.toFile())
                .start();
        return new ChildJvm(mainClass.getSimpleName() + "#" + process.pid(), process, stderrFile);
    }

    /** The flags of this JVM that a child must get as well, in their original order. */
    static List<String> inheritedFlags() {
        List<String> all = ManagementFactory.getRuntimeMXBean().getInputArguments();
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            String flag = all.get(i);
            if (INHERITED_FLAG_PREFIXES.stream().anyMatch(flag::startsWith)) {
                kept.add(flag);
                // "--add-opens X" (two words) as well as "--add-opens=X"
                if (flag.startsWith("--") && !flag.contains("=") && i + 1 < all.size()) {
                    kept.add(all.get(++i));
                }
            }
        }
        return kept;
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    /** Sends one line to the child's stdin. */
    public void send(String line) {
        try {
            stdin.write(line);
            stdin.newLine();
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError(name + " no longer reads its input (" + e.getMessage() + ")" + stderrReport(), e);
        }
    }

    /**
     * The next line the child prints.
     *
     * @throws AssertionError if none comes within {@code timeout} or the child ends first; the
     *     message quotes the child's stderr
     */
    public String readLine(Duration timeout) {
        String line;
        try {
            line = stdoutLines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name, e);
        }
        if (line == null) {
            throw new AssertionError(name + " printed nothing within " + timeout + stderrReport());
        }
        if (line == END_OF_OUTPUT) {
            stdoutLines.add(END_OF_OUTPUT); // later reads fail the same way
            throw new AssertionError(name + " ended before printing the line awaited" + exitReport());
        }
        return line;
    }

    /** Reads the next line and fails unless it is {@code expected}. */
    public void expectLine(String expected, Duration timeout) {
        String line = readLine(timeout);
        if (!line.equals(expected)) {
            throw new AssertionError(name + " printed \"" + line + "\" where \"" + expected + "\" was expected"
                    + stderrReport());
        }
    }

    /** Closes the child's stdin and waits for it to exit with status 0. */
    public void awaitSuccess(Duration timeout) {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // it may have exited already; its status says how
        }
        int status = awaitExit(timeout);
        if (status != 0) {
            throw new AssertionError(name + " exited with status " + status + stderrReport());
        }
    }

    /** Kills the child with SIGKILL, as a crash or {@code kill -9} would, and waits for it to go. */
    public void killHard(Duration timeout) {
        process.destroyForcibly();
        awaitExit(timeout);
    }

    /** Stops the child with SIGTERM, as {@code kill} or a service manager would, and waits for it to go. */
    public void terminate(Duration timeout) {
        process.destroy();
        awaitExit(timeout);
    }

    /** What the child wrote to stderr so far. */
    public String stderr() {
        try {
            return Files.readString(stderrFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills the child if it still runs and deletes its stderr file. */
    @Override
    public void close() throws IOException {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Files.deleteIfExists(stderrFile);
    }

    private int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(name + " did not exit within " + timeout + stderrReport());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name, e);
        }
        return process.exitValue();
    }

    private String exitReport() {
        Optional<Integer> status = Optional.empty();
        try {
            if (process.waitFor(5, TimeUnit.SECONDS)) {
                status = Optional.of(process.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return status.map(s -> " (exit status " + s + ")").orElse("") + stderrReport();
    }

    private String stderrReport() {
        String err = stderr().strip();
        return err.isEmpty() ? "; its stderr is empty" : "; its stderr:\n" + err;
    }

    private void pumpStdout() {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                stdoutLines.add(line);
            }
        } catch (IOException ignored) {
            // the stream closes when the child dies; END_OF_OUTPUT says so
        } finally {
            stdoutLines.add(END_OF_OUTPUT);
        }
    }
}

package io.bloomstore.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM running a {@code main} class of the test sources, on the test classpath and with the
 * JVM flags Chronicle Bytes needs, driven line by line: the parent writes commands to its stdin and
 * reads its stdout as a stream of lines. Stderr goes to a file, quoted in failure messages.
 *
 * <p>Stdout is pumped by a daemon thread into a queue, so {@link #readLine} can wait with a timeout
 * (a hung child fails the test instead of hanging the build) and the lines a child printed before
 * it was killed can still be read afterwards ({@link #readLineOrEnd}).
 */
final class ChildJvm implements AutoCloseable {
    /** Queued after the last line of stdout; compared by identity, so no printed line can be mistaken for it. */
    private static final String END_OF_OUTPUT = new String("<end of output>");
    /** Long enough for a cold JVM plus Chronicle's first mapping on a loaded 2-core machine. */
    static final Duration STARTUP = Duration.ofSeconds(60);

    /** Prefixes of the test JVM's flags that a child needs to map files quietly (see the parent pom). */
    private static final List<String> INHERITED_FLAG_PREFIXES = List.of("--add-opens", "--add-exports",
            "--enable-native-access", "--sun-misc-unsafe-memory-access", "-Dchronicle");

    private final String name;
    private final Process process;
    private final PrintWriter stdin;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final Path stderr;

    private ChildJvm(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.stdin = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
        Thread pump = new Thread(this::pumpStdout, name + "-stdout");
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Starts {@code mainClass} with {@code args} in a new JVM.
     *
     * @param logDir where the child's stderr is written (as {@code name.stderr})
     */
    static ChildJvm start(String name, Class<?> mainClass, Path logDir, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(inheritedJvmFlags());
        command.add("-Xmx128m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        Path stderr = logDir.resolve(name + ".stderr");
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        return new ChildJvm(name, process, stderr);
    }

    /** The test JVM's flags that matter to a child, in both {@code --flag=value} and {@code --flag value} forms. */
    static List<String> inheritedJvmFlags() {
        List<String> all = ManagementFactory.getRuntimeMXBean().getInputArguments();
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            String flag = all.get(i);
            if (INHERITED_FLAG_PREFIXES.stream().noneMatch(flag::startsWith)) {
                continue;
            }
            kept.add(flag);
            if (flag.startsWith("--") && !flag.contains("=") && i + 1 < all.size()) {
                kept.add(all.get(++i));
            }
        }
        return kept;
    }

    /** Sends one command line to the child's stdin. */
    void send(String line) {
        stdin.println(line);
    }

    /** The next line the child printed; fails if none comes within {@code timeout} or its stdout ended. */
    String readLine(Duration timeout) {
        return readLineOrEnd(timeout).orElseThrow(
                () -> new AssertionError(name + " ended before printing the line awaited; " + describe()));
    }

    /**
     * The next line the child printed, or empty once its stdout has ended (after a kill, the lines
     * it printed before dying come first); fails if nothing comes within {@code timeout}.
     */
    Optional<String> readLineOrEnd(Duration timeout) {
        String line;
        try {
            line = stdout.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name, e);
        }
        if (line == null) {
            throw new AssertionError(name + " printed nothing for " + timeout + "; " + describe());
        }
        if (line == END_OF_OUTPUT) {
            stdout.add(END_OF_OUTPUT); // later reads see the end too
            return Optional.empty();
        }
        return Optional.of(line);
    }

    /** Reads the next line and fails unless it is {@code expected}. */
    void expectLine(String expected, Duration timeout) {
        String line = readLine(timeout);
        if (!line.equals(expected)) {
            throw new AssertionError(name + " printed '" + line + "' where '" + expected + "' was expected; " + describe());
        }
    }

    /** Kills the child with SIGKILL (on Linux), as a crash or kill -9 would; returns its exit status (137). */
    int killHard() {
        process.destroyForcibly();
        return awaitExit(STARTUP);
    }

    /** Waits for the child to exit by itself and returns its exit status; fails after {@code timeout}. */
    int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(name + " did not exit within " + timeout + "; " + describe());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name, e);
        }
    }

    /** The child's name, state and stderr, for failure messages. */
    String describe() {
        String state = process.isAlive() ? "still running" : "exited with " + process.exitValue();
        return name + " " + state + ", stderr:\n" + stderrText().orElse("(unreadable)");
    }

    private Optional<String> stderrText() {
        try {
            return Optional.of(Files.readString(stderr));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private void pumpStdout() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                stdout.add(line);
            }
        } catch (IOException e) {
            // the pipe broke because the child died: whatever it printed before is in the queue
        } finally {
            stdout.add(END_OF_OUTPUT);
        }
    }

    /** Kills the child if it is still running: a failed test must not leave JVMs behind. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        stdin.close();
    }

    /** Fails fast when a child cannot print, e.g. because the parent is gone: no orphan runs forever. */
    static void checkPrinted(PrintWriter out) {
        if (out.checkError()) {
            throw new UncheckedIOException(new IOException("stdout is closed; the parent has gone"));
        }
    }
}

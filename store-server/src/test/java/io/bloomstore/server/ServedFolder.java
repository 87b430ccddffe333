package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.testing.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A real server process on a free port, serving a folder, started and stopped by a test. */
final class ServedFolder implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(60);

    final Path dir;
    final ChildJvm process;
    final int port;
    /** The transport the server chose, {@code epoll} or {@code nio}. */
    final String transport;

    private ServedFolder(Path dir, ChildJvm process, int port, String transport) {
        this.dir = dir;
        this.process = process;
        this.port = port;
        this.transport = transport;
    }

    static ServedFolder start(Path dir) throws IOException {
        return start(dir, SyncPolicy.EVERYSEC, null, 30, ServerOptions.DEFAULT_MAX_CLIENTS);
    }

    static ServedFolder start(Path dir, SyncPolicy sync, String password, int requestTimeoutSeconds, int maxClients)
            throws IOException {
        return start(List.of(), dir, sync, password, requestTimeoutSeconds, maxClients);
    }

    static ServedFolder start(List<String> jvmOptions, Path dir, SyncPolicy sync, String password, int requestTimeoutSeconds,
            int maxClients) throws IOException {
        ChildJvm process = ChildJvm.start(jvmOptions, ServerMain.class, dir.toString(), sync.name(),
                password == null ? "-" : password, Integer.toString(requestTimeoutSeconds), Integer.toString(maxClients));
        String line = process.readLine(WAIT);
        String[] words = line == null ? new String[0] : line.split(" ");
        if (words.length != 3 || !words[0].equals("port")) {
            process.close();
            throw new AssertionError("the server printed \"" + line + "\" where its port was expected: " + process.stderr());
        }
        return new ServedFolder(dir, process, Integer.parseInt(words[1]), words[2]);
    }

    /** What redis-cli prints (stdout and stderr, stripped) for {@code args} sent to this server. */
    String redisCli(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
            try {
                return process.getInputStream().readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "redis-cli " + String.join(" ", args) + " did not end");
        return new String(out.join(), StandardCharsets.UTF_8).strip();
    }

    /** Stops the server the clean way (its stdin closed) and checks it ended well. */
    void stop() {
        process.awaitSuccess(WAIT);
    }

    @Override
    public void close() throws IOException {
        process.close();
    }
}

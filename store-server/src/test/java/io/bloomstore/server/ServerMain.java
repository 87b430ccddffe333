package io.bloomstore.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The server in a process of its own, for tests: {@code ServerMain DIR SYNC PASSWORD|- TIMEOUT_SECONDS MAX_CLIENTS}
 * serves DIR on a free loopback port, prints {@code port N}, and stops (closing every file) at
 * the end of its stdin or on SIGTERM. A kill -9 stops it as a crash would.
 */
public final class ServerMain {
    private ServerMain() {
    }

    public static void main(String[] args) throws IOException {
        ServerOptions defaults = ServerOptions.of(Path.of(args[0]));
        byte[] password = args[2].equals("-") ? null : args[2].getBytes(StandardCharsets.UTF_8);
        ServerOptions options = new ServerOptions(defaults.dir(), "127.0.0.1", 0, null, password,
                SyncPolicy.valueOf(args[1]), Integer.parseInt(args[4]), defaults.defaultCapacity(),
                defaults.defaultError(), Duration.ofSeconds(Long.parseLong(args[3])));
        BloomServer server = BloomServer.start(options);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        System.out.println("port " + server.port() + " " + server.transport());
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the test closes our stdin
        }
        server.close();
        System.out.println("closed");
        System.out.flush();
    }
}

package io.bloomstore.server;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests that share one server, in its own process with the default options, on a folder of their
 * class's own: one start for the class, each test with keys of its own.
 */
abstract class OneServerTests {
    @TempDir
    static Path dir;
    static ServedFolder server;

    @BeforeAll
    static void startServer() throws IOException {
        server = ServedFolder.start(dir);
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (server != null) {
            server.stop();
            server.close();
        }
    }
}

package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With a password, nothing but AUTH, HELLO AUTH and QUIT is served before it is given. */
class AuthTest {
    @TempDir
    Path dir;

    @Test
    void nothingButAuthBeforeAuthentication() throws IOException {
        try (ServedFolder server = ServedFolder.start(dir, SyncPolicy.EVERYSEC, "s3cret", 30, 100)) {
            try (Resp resp = new Resp(server.port)) {
                assertEquals("-NOAUTH Authentication required.", resp.send(Resp.command("PING")).line());
                assertEquals("-NOAUTH Authentication required.", resp.send(Resp.command("BF.ADD", "k", "a")).line());
                assertEquals("-NOAUTH Authentication required.", resp.send(Resp.command("KEYS", "*")).line());
                assertTrue(resp.send(Resp.command("HELLO", "3")).line().startsWith("-NOAUTH"));
                assertEquals("-WRONGPASS invalid username-password pair or user is disabled.",
                        resp.send(Resp.command("AUTH", "wrong")).line());
                assertEquals("-WRONGPASS invalid username-password pair or user is disabled.",
                        resp.send(Resp.command("AUTH", "someone", "s3cret")).line());
                assertEquals("+OK", resp.send(Resp.command("AUTH", "s3cret")).line());
                assertEquals(":1", resp.send(Resp.command("BF.ADD", "k", "a")).line());
            }
            try (Resp resp = new Resp(server.port)) {
                assertEquals("%8", resp.send(Resp.command("HELLO", "3", "AUTH", "default", "s3cret")).line());
            }
            try (Resp resp = new Resp(server.port)) {
                // before AUTH, Redis's own bounds: no request of more than 10 arguments is even read
                resp.send("*11\r\n");
                assertEquals("-ERR Protocol error: invalid multibulk length", resp.line());
                assertTrue(resp.closedByServer());
            }
            assertFalse(Files.exists(dir.resolve("nokey.bloom")));
            assertTrue(Files.exists(dir.resolve("k.bloom")), "the authenticated add made its file");
            server.stop();
        }
    }
}

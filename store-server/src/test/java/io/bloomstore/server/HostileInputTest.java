package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests no client would send, against the server in its own process: each gets a RESP error
 * or a closed connection, the server allocates nothing for what was announced and never sent,
 * and it goes on serving everyone else (checked after every test).
 */
class HostileInputTest {
    @TempDir
    static Path dir;
    static ServedFolder server;

    @BeforeAll
    static void start() throws IOException {
        server = ServedFolder.start(dir, SyncPolicy.EVERYSEC, null, 2, ServerOptions.DEFAULT_MAX_CLIENTS);
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.stop();
            server.close();
        }
    }

    @AfterEach
    void theServerStillServes() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            assertEquals("+PONG", resp.send(Resp.command("PING")).line());
        }
    }

    private static void refusedAndClosed(String request, String error) throws IOException {
        try (Resp resp = new Resp(server.port)) {
            String reply = resp.send(request).line();
            assertTrue(reply != null && reply.startsWith("-ERR Protocol error"), request + " -> " + reply);
            assertTrue(reply.contains(error), reply);
            assertTrue(resp.closedByServer(), "the connection is closed after " + reply);
        }
    }

    @Test
    void aBulkLengthOf2To62IsRefused() throws IOException {
        refusedAndClosed("*2\r\n$4\r\nECHO\r\n$4611686018427387904\r\nab\r\n", "length");
    }

    @Test
    void anArrayOfABillionElementsIsRefused() throws IOException {
        refusedAndClosed("*1000000000\r\n", "invalid multibulk length");
    }

    @Test
    void aOneGigabyteKeyIsRefusedBeforeItsBytesArrive() throws IOException {
        refusedAndClosed("*3\r\n$6\r\nBF.ADD\r\n$1073741824\r\n", "length");
        refusedAndClosed("*3\r\n$6\r\nBF.ADD\r\n$" + (RequestDecoder.MAX_BULK + 1) + "\r\n", "invalid bulk length");
    }

    @Test
    void anUnterminatedLineIsRefusedAtTheInlineLimit() throws IOException {
        byte[] line = new byte[100_000];
        Arrays.fill(line, (byte) 'a');
        refusedAndClosed(new String(line, StandardCharsets.ISO_8859_1), "too big inline request");
    }

    @Test
    void binaryGarbageIsAnErrorNotACrash() throws IOException {
        byte[] garbage = new byte[200_000];
        new Random(42).nextBytes(garbage);
        try (Resp resp = new Resp(server.port)) {
            resp.send(garbage);
            String reply = resp.line();
            assertTrue(reply != null && reply.startsWith("-"), "an error, not silence: " + reply);
        }
        refusedAndClosed("*2\r\n*1\r\n$1\r\na\r\n", "expected '$', got '*'");
        refusedAndClosed("*x\r\n", "");
    }

    @Test
    void aSlowLorisClientIsClosedAfterTheRequestTimeout() throws IOException, InterruptedException {
        try (Resp resp = new Resp(server.port)) {
            resp.send("*3\r\n$6\r\nBF.ADD\r\n$1\r\nk");
            long started = System.nanoTime();
            assertTrue(resp.closedByServer(), "a request that never completes is dropped");
            assertTrue(System.nanoTime() - started < 60e9, "within the timeout (2 s) and the tick");
        }
        try (Resp resp = new Resp(server.port)) {
            // a byte at a time keeps the connection busy but never finishes a request in time
            String request = "*2\r\n$4\r\nECHO\r\n$20\r\n01234567890123456789\r\n";
            boolean closed = false;
            for (int i = 0; i < request.length() && !closed; i++) {
                try {
                    resp.send(request.substring(i, i + 1));
                    Thread.sleep(500);
                } catch (IOException e) {
                    closed = true;
                }
            }
            assertTrue(closed || resp.closedByServer(), "a request dribbled over 20 s is dropped");
        }
    }

    @Test
    void aClientThatNeverReadsIsStoppedNotBuffered() throws IOException {
        byte[] payload = new byte[4096];
        Arrays.fill(payload, (byte) 'x');
        byte[] echo = ("*2\r\n$4\r\nECHO\r\n$4096\r\n" + new String(payload, StandardCharsets.ISO_8859_1) + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer batch = ByteBuffer.allocate(echo.length * 256);
        for (int i = 0; i < 256; i++) {
            batch.put(echo);
        }
        batch.flip();
        long accepted = 0;
        try (SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port))) {
            channel.configureBlocking(false);
            long quietSince = System.nanoTime();
            // up to 256 MiB of ECHOs, whose replies the client never reads
            while (accepted < (256L << 20) && System.nanoTime() - quietSince < 5e9) {
                if (!batch.hasRemaining()) {
                    batch.rewind();
                }
                int written = channel.write(batch);
                accepted += written;
                if (written > 0) {
                    quietSince = System.nanoTime();
                } else {
                    try (Resp other = new Resp(server.port)) {
                        assertEquals("+PONG", other.send(Resp.command("PING")).line(), "others are served meanwhile");
                    }
                }
            }
        }
        assertTrue(accepted < (64L << 20), "the server stopped reading from a client that does not read its replies, "
                + "after " + accepted + " bytes (socket buffers and one read's worth)");
    }

    @Test
    void keysCannotReachOutsideTheFolder() throws IOException {
        // a name of its own: the folder's parent is shared with whatever else runs on the machine
        String escape = "escape-" + java.util.UUID.randomUUID();
        try (Resp resp = new Resp(server.port)) {
            for (String key : new String[] {"../" + escape, "/tmp/absolute", "a/../../b", ".hidden", "..", "nul\0byte"}) {
                assertEquals(":1", resp.send(Resp.command("BF.ADD", key, "item")).line(), key);
                assertEquals(":1", resp.send(Resp.command("BF.EXISTS", key, "item")).line(), key);
            }
            assertTrue(resp.send(Resp.command("BF.ADD", "k".repeat(300), "item")).line().startsWith("-ERR key too long"));
            assertTrue(resp.send(Resp.command("BF.ADD", "", "item")).line().startsWith("-ERR empty key"));
            assertEquals("*6", resp.send(Resp.command("KEYS", "*")).line(), "the six keys, listed back");
        }
        assertTrue(Files.notExists(dir.getParent().resolve(escape + ".bloom")));
        try (var files = Files.list(dir)) {
            List<String> names = files.map(f -> f.getFileName().toString()).sorted().toList();
            assertEquals(List.of("%2E.%2F" + escape + ".bloom", "%2E..bloom", "%2Ehidden.bloom", "%2Ftmp%2Fabsolute.bloom",
                    "a%2F..%2F..%2Fb.bloom", "nul%00byte.bloom"), names, "every key is one DIR/NAME.bloom");
        }
    }
}

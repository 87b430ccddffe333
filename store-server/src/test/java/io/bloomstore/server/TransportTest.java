package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server process serves through Linux's epoll where Netty's native library loads (this build
 * carries it for x86_64 Linux), and through the JDK's NIO when native transports are turned off:
 * the same requests, the same replies, pipelined, on both; and a Unix socket on the one chosen.
 */
class TransportTest {
    @TempDir
    Path dir;

    @Test
    void epollWhereItsLibraryLoads() throws IOException {
        boolean x86Linux = System.getProperty("os.name").equals("Linux")
                && List.of("amd64", "x86_64").contains(System.getProperty("os.arch"));
        servesThrough(List.of(), x86Linux ? "epoll" : "nio");
    }

    @Test
    void nioWhenNativeTransportsAreOff() throws IOException {
        servesThrough(List.of("-Dio.netty.transport.noNative=true"), "nio");
    }

    @Test
    void asManyEventLoopsAsNettysPropertySays() throws IOException {
        try (ServedFolder server = ServedFolder.start(List.of("-Dio.netty.eventLoopThreads=3"), dir, SyncPolicy.EVERYSEC,
                null, 30, ServerOptions.DEFAULT_MAX_CLIENTS)) {
            try (Resp resp = new Resp(server.port)) {
                resp.send(Resp.command("INFO", "server"));
                String line = resp.line();
                while (line != null && !line.startsWith("event_loop_threads:")) {
                    line = resp.line();
                }
                assertEquals("event_loop_threads:3", line);
            }
            server.stop();
        }
    }

    @Test
    void aUnixSocketOnTheTransportChosen() throws IOException {
        Path socket = dir.resolve("serve.sock");
        try (BloomServer server = BloomServer.start(ServerOptions.of(dir).withListener("127.0.0.1", -1, socket));
                SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            assertEquals(socket.toString(), server.listening());
            channel.write(ByteBuffer.wrap(Resp.command("ECHO", "through " + server.transport())));
            String expected = "$" + ("through " + server.transport()).length() + "\r\nthrough " + server.transport() + "\r\n";
            ByteBuffer reply = ByteBuffer.allocate(expected.length());
            while (reply.hasRemaining() && channel.read(reply) >= 0) {
                // until the whole reply is read
            }
            assertEquals(expected, new String(reply.array(), StandardCharsets.US_ASCII));
        }
        assertTrue(Files.notExists(socket), "the socket file is removed on close");
    }

    private void servesThrough(List<String> jvmOptions, String transport) throws IOException {
        try (ServedFolder server = ServedFolder.start(jvmOptions, dir, SyncPolicy.EVERYSEC, null, 30,
                ServerOptions.DEFAULT_MAX_CLIENTS)) {
            assertEquals(transport, server.transport);
            try (Resp resp = new Resp(server.port)) {
                ByteArrayOutputStream pipelined = new ByteArrayOutputStream();
                for (int i = 0; i < 100; i++) {
                    pipelined.writeBytes(Resp.command("BF.ADD", "k", "item-" + i));
                    pipelined.writeBytes(Resp.command("BF.EXISTS", "k", "item-" + i));
                }
                resp.send(pipelined.toByteArray());
                for (int i = 0; i < 100; i++) {
                    assertTrue(List.of(":0", ":1").contains(resp.line()), "BF.ADD item-" + i);
                    assertEquals(":1", resp.line(), "BF.EXISTS item-" + i + " after its add");
                }
                assertEquals(":0", resp.send(Resp.command("BF.EXISTS", "no-such-key", "item-0")).line());
            }
            server.stop();
        }
    }
}

package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The request decoder alone on an embedded channel: the words it delivers, byte for byte, and the
 * exact protocol error of each malformed request (Redis's texts, as redis-server words them).
 * {@link RequestFuzzTest} fuzzes it; {@link HostileInputTest} runs the same against the server.
 */
class RequestDecoderTest {
    private final Session session = new Session(1, null, true);
    private final EmbeddedChannel channel = new EmbeddedChannel(new RequestDecoder(session));
    private String error;

    private List<String> send(String... pieces) {
        for (String piece : pieces) {
            try {
                channel.writeInbound(Unpooled.wrappedBuffer(piece.getBytes(StandardCharsets.ISO_8859_1)));
            } catch (RequestDecoder.ProtocolViolation e) {
                assertNull(error, "one protocol error, then nothing more is read");
                error = e.getMessage();
            }
        }
        List<String> requests = new ArrayList<>();
        for (Object request; (request = channel.readInbound()) != null; ) {
            List<String> words = new ArrayList<>();
            for (byte[] word : (byte[][]) request) {
                words.add(new String(word, StandardCharsets.ISO_8859_1));
            }
            requests.add(String.join("|", words));
        }
        return requests;
    }

    @Test
    void pipelinedArraysAreDeliveredInOrderWordForWord() {
        assertEquals(List.of("BF.ADD|k|a\r\nb\0", "PING", "", "", "ECHO|"),
                send("*3\r\n$6\r\nBF.ADD\r\n$1\r\nk\r\n$5\r\na\r\nb\0\r\n*1\r\n$4\r\nPING\r\n*0\r\n*-1\r\n*2\r\n$4\r\nECHO\r\n$0\r\n\r\n"),
                "binary-safe words; an empty and a null array are empty requests, run as nothing");
        assertNull(error);
    }

    @Test
    void aRequestInPiecesIsDeliveredWhenItsLastByteArrives() {
        assertEquals(List.of(), send("*2\r", "\n$4\r\nEC", "HO\r\n$3\r\nab"));
        assertNotEquals(0, session.requestStarted, "its first bytes started the request timeout's clock");
        assertEquals(List.of(), send("c\r"));
        assertEquals(List.of("ECHO|abc"), send("\n"));
    }

    @Test
    void aLargeWordInPiecesComesWholeWithMemoryFollowingItsBytes() {
        byte[] word = new byte[1 << 20];
        Arrays.fill(word, (byte) 'w');
        String header = "*2\r\n$4\r\nECHO\r\n$" + word.length + "\r\n";
        RequestDecoder decoder = channel.pipeline().get(RequestDecoder.class);
        assertEquals(List.of(), send(header));
        assertTrue(decoder.heldBytes() <= RequestDecoder.FIRST_STEP + 4, "nothing allocated for what was announced");
        long arrived = header.length();
        for (int at = 0; at < word.length; at += 10_000) {
            int n = Math.min(10_000, word.length - at);
            channel.writeInbound(Unpooled.wrappedBuffer(word, at, n));
            arrived += n;
            assertTrue(decoder.heldBytes() <= 2 * arrived + RequestDecoder.FIRST_STEP, decoder.heldBytes() + " after " + arrived);
        }
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {'\r', '\n'}));
        byte[][] request = channel.readInbound();
        assertArrayEquals(word, request[1]);
    }

    @Test
    void inlineLinesAreTrimmedAndSplitAtSpacesAndTabsWithOrWithoutCr() {
        assertEquals(List.of("PING", "BF.ADD|k|x", "", "SET|a\u00ffb|c"),
                send("PING\r\n", "  BF.ADD \t k  x \n", "\r\n", "SET a\u00ffb c\r\n"));
        assertNull(error);
    }

    @Test
    void anInlineLineIsRefusedPastTheBoundWhetherOrNotItsEndArrived() {
        String line = "a".repeat(RequestDecoder.MAX_INLINE);
        assertEquals(List.of("a".repeat(RequestDecoder.MAX_INLINE)), send(line + "\r\n"), "at the bound, served");
        assertEquals(List.of(), send(line + "aa"));
        assertEquals("ERR Protocol error: too big inline request", error);
        assertEquals(List.of(), send("PING\r\n"), "nothing read after the refusal");
    }

    @Test
    void eachMalformedRequestGetsRedisProtocolError() {
        String[][] cases = {
            {"*x\r\n", "ERR Protocol error: invalid multibulk length"},
            {"*1000000000\r\n", "ERR Protocol error: invalid multibulk length"},
            {"*12345678901234567890\r\n", "ERR Protocol error: invalid multibulk length"},
            {"*1\r\n*1\r\n", "ERR Protocol error: expected '$', got '*'"},
            {"*1\r\n:1\r\n", "ERR Protocol error: expected '$', got ':'"},
            {"*1\r\n$-1\r\n", "ERR Protocol error: invalid bulk length"},
            {"*1\r\n$4611686018427387904\r\n", "ERR Protocol error: invalid bulk length"},
            {"*1\r\n$" + (RequestDecoder.MAX_BULK + 1) + "\r\n", "ERR Protocol error: invalid bulk length"},
            {"*1\r\n$ 1\r\n", "ERR Protocol error: invalid bulk length"},
            {"*1\r\n$1\nx", "ERR Protocol error: invalid bulk length"},
            {"*1\r\n$4\r\nPINGxx", "ERR Protocol error: a bulk string of 4 bytes is not followed by CRLF"},
        };
        for (String[] c : cases) {
            RequestDecoderTest fresh = new RequestDecoderTest();
            assertEquals(List.of(), fresh.send(c[0]), c[0]);
            assertEquals(c[1], fresh.error, c[0]);
        }
    }

    @Test
    void beforeAuthRequestsAreBoundedAsRedisBoundsThem() {
        session.authenticated = false;
        assertEquals(List.of(), send("*11\r\n"));
        assertEquals("ERR Protocol error: invalid multibulk length", error);
        RequestDecoderTest fresh = new RequestDecoderTest();
        fresh.session.authenticated = false;
        assertEquals(List.of(), fresh.send("*2\r\n$4\r\nAUTH\r\n$16385\r\n"));
        assertEquals("ERR Protocol error: invalid bulk length", fresh.error);
    }

    @Test
    void aRequestPastItsTotalBoundIsRefusedAtTheHeaderThatPassesIt() {
        String bulk = "$" + RequestDecoder.MAX_BULK + "\r\n";
        assertEquals(List.of(), send("*3\r\n" + bulk));
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[(int) RequestDecoder.MAX_BULK]));
        assertEquals(List.of(), send("\r\n" + bulk));
        assertEquals("ERR Protocol error: invalid bulk length", error, "two words of 64 MiB pass 128 MiB with their overhead");
    }
}

package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzzes the request parser: a connection's own handlers ({@link BloomServer#serve}: the
 * {@link RequestDecoder}) on an embedded channel, fed any bytes in pieces of any size, with a
 * recorder in place of the commands. Whatever arrives:
 * <ul>
 *   <li>no exception escapes but the decoder's protocol error, and after one nothing more is
 *       delivered;</li>
 *   <li>memory follows the bytes that arrived: the decoder never holds more than twice them (a
 *       word's buffer doubles as its bytes come) and one first step of a bulk string (64 KiB), and
 *       no request delivered passes the bounds;</li>
 *   <li>nothing is held back: the requests delivered and the error are the same whether the bytes
 *       come in pieces or at once, so a request is run as soon as its last byte arrives.</li>
 * </ul>
 * In a normal test run this replays the committed inputs
 * ({@code src/test/resources/io/bloomstore/server/RequestFuzzTestInputs/}); with
 * {@code JAZZER_FUZZ=1} it fuzzes (docs/SERVER.md, "Security and limits").
 */
class RequestFuzzTest {
    /** How far the decoder may allocate ahead of the bytes: the first step of a bulk string's buffer. */
    private static final long AHEAD = RequestDecoder.FIRST_STEP;

    private static ServerState state;

    @BeforeAll
    static void parserOnly() {
        // replaying needs none of Jazzer's method hooks, whose installation costs seconds of class retransformation
        if (System.getenv("JAZZER_FUZZ") == null && System.getProperty("jazzer.hooks") == null) {
            System.setProperty("jazzer.hooks", "false");
        }
        Path nowhere = Path.of("fuzz-serves-no-folder");
        state = new ServerState(ServerOptions.of(nowhere), new Keyspace(nowhere, Clock.systemUTC()));
    }

    /** The first byte sets the size of the pieces (1 to 256 bytes); the rest is what the client sends. */
    @FuzzTest(maxDuration = "5m")
    void anyBytesInAnyPiecesGiveRequestsOrOneProtocolErrorWithinBoundedMemory(byte[] data) {
        if (data.length == 0) {
            return;
        }
        byte[] sent = Arrays.copyOfRange(data, 1, data.length);
        Parsed whole = parse(sent, Math.max(1, sent.length));
        Parsed pieces = parse(sent, 1 + (data[0] & 0xFF));
        assertEquals(whole.requests, pieces.requests, "the same requests whether the bytes come at once or in pieces");
        assertEquals(whole.error, pieces.error, "refused or not alike whether the bytes come at once or in pieces");
    }

    private static Parsed parse(byte[] sent, int piece) {
        Session session = new Session(1, null, true);
        EmbeddedChannel channel = new EmbeddedChannel();
        BloomServer.serve(channel.pipeline(), state, session);
        Parsed parsed = new Parsed();
        channel.pipeline().replace(CommandHandler.class, "record", parsed);
        RequestDecoder decoder = channel.pipeline().get(RequestDecoder.class);
        try {
            for (int at = 0; at < sent.length && channel.isOpen(); at += piece) {
                int n = Math.min(piece, sent.length - at);
                channel.writeInbound(Unpooled.wrappedBuffer(sent, at, n));
                long held = decoder.heldBytes();
                assertTrue(held <= 2L * (at + n) + AHEAD, "the decoder holds " + held + " bytes after " + (at + n) + " arrived");
            }
        } finally {
            channel.finishAndReleaseAll();
        }
        return parsed;
    }

    /** Records what the parser delivers: each request's words, and whether a protocol error ended the connection. */
    private static final class Parsed extends ChannelInboundHandlerAdapter {
        final List<String> requests = new ArrayList<>();
        String error;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            byte[][] words = (byte[][]) msg;
            assertTrue(error == null, "nothing is delivered after a protocol error");
            assertTrue(words.length <= RequestDecoder.MAX_ARGS, "at most MAX_ARGS words");
            long bytes = 0;
            for (byte[] word : words) {
                assertTrue(word.length <= RequestDecoder.MAX_BULK, "no word past MAX_BULK");
                bytes += word.length + RequestDecoder.ARG_OVERHEAD;
            }
            assertTrue(bytes <= RequestDecoder.MAX_REQUEST, "no request past MAX_REQUEST");
            // a summary, so that a failure's message stays short however long the words
            requests.add(words.length + " words, " + bytes + " bytes, hash " + Arrays.deepHashCode(words));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!(cause instanceof RequestDecoder.ProtocolViolation)) {
                fail("only a protocol error may end a connection's parsing", cause);
            }
            if (error == null) {
                error = cause.getMessage();
            }
            ctx.close();
        }
    }
}

package io.bloomstore.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Assembles a request from what netty-codec-redis's decoder reads, an array header and bulk
 * strings (or an inline line), into its words, and bounds it before anything is allocated for it:
 * at most {@link #MAX_ARGS} arguments, {@link #MAX_BULK} bytes each and {@link #MAX_REQUEST} bytes
 * in all (each argument counted with {@link #ARG_OVERHEAD} more for its array); before AUTH, Redis's
 * own bounds (10 arguments, 16 KiB each). Memory follows the bytes that arrive, never the lengths
 * announced: a bulk length of 2^62, an array of a billion elements or a 1 GB key costs nothing until
 * sent, and is refused at its header. A request past a bound is answered with Redis's protocol
 * error and the connection closed, as Redis does.
 *
 * <p>Netty's own aggregators (RedisBulkStringAggregator, RedisArrayAggregator) would build a
 * composite buffer per argument and a list per request, only for the command to copy the bytes
 * out: this does the copy once, straight from the decoder's slices.
 */
final class RequestAssembler extends ChannelInboundHandlerAdapter {
    /** Inline requests (a line typed into telnet) longer than this are refused, as Redis does. */
    static final int MAX_INLINE = 64 << 10;
    static final int MAX_ARGS = 1 << 20;
    static final long MAX_BULK = 64L << 20;
    static final long MAX_REQUEST = 128L << 20;
    static final int ARG_OVERHEAD = 48;
    private static final int UNAUTHENTICATED_ARGS = 10;
    private static final long UNAUTHENTICATED_BULK = 16 << 10;
    private static final byte[][] NONE = new byte[0][];

    private final Session session;
    /** The words so far and how many are still to come; words == null between requests. */
    private byte[][] words;
    private int count;
    private long remaining;
    private long bytes;
    /** The bulk string being read: its bytes so far, and its announced length. */
    private byte[] bulk;
    private int bulkFilled;
    private int bulkLength;
    /** Set once a request is refused: what follows it on the connection is dropped unread. */
    private boolean refused;

    RequestAssembler(Session session) {
        this.session = session;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (!refused) {
                read(ctx, msg);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void read(ChannelHandlerContext ctx, Object msg) {
        // first: a FullBulkStringRedisMessage (the decoder's null and empty strings) is a bulk content too
        if (msg instanceof FullBulkStringRedisMessage full) {
            if (words == null) {
                refuse(ctx, "ERR Protocol error: expected '*', got '$'");
                return;
            }
            word(ctx, full.isNull() ? new byte[0] : bytesOf(full.content()));
        } else if (msg instanceof BulkStringRedisContent content) {
            if (bulk == null) {
                refuse(ctx, "ERR Protocol error: expected '$', got content");
                return;
            }
            append(content.content());
            if (msg instanceof LastBulkStringRedisContent) {
                word(ctx, bulkFilled == bulk.length ? bulk : Arrays.copyOf(bulk, bulkFilled));
                bulk = null;
            }
        } else if (msg instanceof BulkStringHeaderRedisMessage header) {
            long length = header.bulkStringLength();
            bytes += length + ARG_OVERHEAD;
            if (words == null) {
                refuse(ctx, "ERR Protocol error: expected '*', got '$'");
            } else if (length > (session.authenticated ? MAX_BULK : UNAUTHENTICATED_BULK) || bytes > MAX_REQUEST) {
                refuse(ctx, "ERR Protocol error: invalid bulk length");
            } else {
                bulkLength = (int) length;
                bulk = new byte[Math.min(bulkLength, 64 << 10)]; // grows as the bytes arrive
                bulkFilled = 0;
            }
        } else if (msg instanceof ArrayHeaderRedisMessage header) {
            long length = header.length();
            if (words != null) {
                refuse(ctx, "ERR Protocol error: expected '$', got '*'");
            } else if (length > (session.authenticated ? MAX_ARGS : UNAUTHENTICATED_ARGS)) {
                refuse(ctx, "ERR Protocol error: invalid multibulk length");
            } else if (length <= 0) {
                ctx.fireChannelRead(NONE); // an empty request: nothing to run, nothing to answer
            } else {
                words = new byte[(int) Math.min(length, 16)][]; // grows as the words arrive
                count = 0;
                remaining = length;
                bytes = 0;
            }
        } else if (msg instanceof InlineCommandRedisMessage inline) {
            // the decoder bounds only a line still without its end: one that came whole in one read is
            // bounded here (a char is at most 3 bytes of UTF-8, so a shorter line needs no count)
            if (inline.content().length() > MAX_INLINE / 3
                    && inline.content().getBytes(StandardCharsets.UTF_8).length > MAX_INLINE) {
                refuse(ctx, "ERR Protocol error: too big inline request");
                return;
            }
            String line = inline.content().trim();
            String[] split = line.isEmpty() ? new String[0] : line.split("[ \t]+");
            byte[][] request = new byte[split.length][];
            for (int i = 0; i < split.length; i++) {
                request[i] = split[i].getBytes(StandardCharsets.UTF_8);
            }
            ctx.fireChannelRead(request);
        } else {
            refuse(ctx, "ERR Protocol error: a request is an array of bulk strings");
        }
    }

    /** The bytes held for the request being assembled: its words so far and the bulk string being read. */
    long heldBytes() {
        long held = bulk == null ? 0 : bulk.length;
        for (int i = 0; words != null && i < count; i++) {
            held += words[i].length;
        }
        return held;
    }

    private void append(ByteBuf content) {
        int n = content.readableBytes();
        if (bulkFilled + n > bulk.length) {
            bulk = Arrays.copyOf(bulk, Math.max(Math.min(bulkLength, bulk.length * 2), bulkFilled + n));
        }
        content.readBytes(bulk, bulkFilled, n);
        bulkFilled += n;
    }

    private void word(ChannelHandlerContext ctx, byte[] word) {
        if (count == words.length) {
            words = Arrays.copyOf(words, (int) Math.min((long) words.length * 2, count + remaining));
        }
        words[count++] = word;
        if (--remaining == 0) {
            byte[][] request = words;
            words = null;
            ctx.fireChannelRead(request);
        }
    }

    private static byte[] bytesOf(ByteBuf content) {
        byte[] copy = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), copy);
        return copy;
    }

    private void refuse(ChannelHandlerContext ctx, String error) {
        refused = true;
        words = null;
        bulk = null;
        ctx.fireExceptionCaught(new ProtocolViolation(error));
    }

    /** A request the server will not read: answered with its text, then the connection is closed. */
    static final class ProtocolViolation extends Exception {
        private static final long serialVersionUID = 1L;

        ProtocolViolation(String text) {
            super(text, null, false, false);
        }
    }
}

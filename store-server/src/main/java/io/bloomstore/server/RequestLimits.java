package io.bloomstore.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Bounds a request before anything is allocated for it, from the headers netty-codec-redis's
 * decoder reads: a request is one array of bulk strings (or an inline line), of at most
 * {@link #MAX_ARGS} arguments, {@link #MAX_BULK} bytes each and {@link #MAX_REQUEST} bytes in all
 * (each argument counted with {@link #ARG_OVERHEAD} more for its objects); before AUTH, Redis's own
 * bounds (10 arguments, 16 KiB each). A request past a bound is answered with Redis's protocol error
 * and the connection closed, as Redis does, so a bulk length of 2^62, an array of a billion elements
 * or a 1 GB key costs the server nothing.
 */
final class RequestLimits extends ChannelInboundHandlerAdapter {
    static final int MAX_ARGS = 1 << 20;
    static final long MAX_BULK = 64L << 20;
    static final long MAX_REQUEST = 128L << 20;
    static final int ARG_OVERHEAD = 48;
    private static final int UNAUTHENTICATED_ARGS = 10;
    private static final long UNAUTHENTICATED_BULK = 16 << 10;

    private final Session session;
    /** Arguments of the request still to come; 0 between requests. */
    private long remaining;
    private long bytes;
    /** Set once a request is refused: what follows it on the connection is dropped unread. */
    private boolean refused;

    RequestLimits(Session session) {
        this.session = session;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (refused) {
            ReferenceCountUtil.release(msg);
        } else if (msg instanceof ArrayHeaderRedisMessage header) {
            if (remaining > 0) {
                refuse(ctx, msg, "ERR Protocol error: expected '$', got '*'");
                return;
            }
            long length = header.length();
            if (length > (session.authenticated ? MAX_ARGS : UNAUTHENTICATED_ARGS)) {
                refuse(ctx, msg, "ERR Protocol error: invalid multibulk length");
                return;
            }
            remaining = Math.max(length, 0);
            bytes = 0;
        } else if (msg instanceof BulkStringHeaderRedisMessage header) {
            long length = header.bulkStringLength();
            bytes += length + ARG_OVERHEAD;
            if (remaining == 0 || length > (session.authenticated ? MAX_BULK : UNAUTHENTICATED_BULK)
                    || bytes > MAX_REQUEST) {
                refuse(ctx, msg, remaining == 0 ? "ERR Protocol error: expected '*', got '$'"
                        : "ERR Protocol error: invalid bulk length");
                return;
            }
        } else if (msg instanceof FullBulkStringRedisMessage || msg instanceof LastBulkStringRedisContent) {
            if (remaining == 0) {
                refuse(ctx, msg, "ERR Protocol error: expected '*', got '$'");
                return;
            }
            remaining--;
        } else if (!(msg instanceof BulkStringRedisContent || msg instanceof InlineCommandRedisMessage)) {
            refuse(ctx, msg, "ERR Protocol error: a request is an array of bulk strings");
            return;
        }
        if (!refused) {
            ctx.fireChannelRead(msg);
        }
    }

    private void refuse(ChannelHandlerContext ctx, Object msg, String error) {
        refused = true;
        ReferenceCountUtil.release(msg);
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

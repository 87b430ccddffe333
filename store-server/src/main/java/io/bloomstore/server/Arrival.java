package io.bloomstore.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Notes when the bytes of a request begin to arrive, before the decoder: the server's tick closes
 * a connection whose request has not arrived whole within the request timeout (a slow-loris
 * client holds a connection, and its partial request's memory, no longer than that).
 */
final class Arrival extends ChannelInboundHandlerAdapter {
    private final Session session;

    Arrival(Session session) {
        this.session = session;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (session.requestStarted == 0) {
            session.requestStarted = System.nanoTime() | 1; // never 0, which means "between requests"
        }
        ctx.fireChannelRead(msg);
    }
}

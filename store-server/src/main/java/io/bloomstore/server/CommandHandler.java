package io.bloomstore.server;

import io.bloomstore.server.RequestDecoder.ProtocolViolation;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * Runs each whole request on the connection's event-loop thread and writes its reply, so replies
 * go out in the order of the requests however many are pipelined. Replies of one read are
 * gathered and flushed once, at the end of the read. When the client does not read its replies and
 * the connection's outbound buffer passes its high mark, requests already read wait in a backlog
 * and the connection stops reading until the client catches up: a client that never reads holds
 * at most one read's worth of requests and the outbound buffer.
 */
final class CommandHandler extends ChannelInboundHandlerAdapter {
    /** Past this many reply bytes in the gathering buffer, they are handed to the channel mid-read. */
    private static final int GATHER = 64 << 10;

    private final ServerState server;
    private final Session session;
    private final Commands commands;
    private final ArrayDeque<byte[][]> backlog = new ArrayDeque<>();
    private ByteBuf pending;
    private boolean closing;

    CommandHandler(ServerState server, Session session) {
        this.server = server;
        this.session = session;
        this.commands = new Commands(server, session);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        byte[][] args = (byte[][]) msg; // a whole request's words, from RequestDecoder
        session.requestStarted = 0;
        if (closing || args.length == 0) {
            return;
        }
        if (!backlog.isEmpty() || !ctx.channel().isWritable()) {
            backlog.add(args);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        run(ctx, args);
    }

    private void run(ChannelHandlerContext ctx, byte[][] args) {
        if (pending == null) {
            pending = ctx.alloc().ioBuffer(256);
            session.reply.target(pending);
        }
        boolean quit = commands.run(args, session.reply);
        if (quit) {
            closing = true;
            backlog.clear();
            ctx.writeAndFlush(takePending()).addListener(ChannelFutureListener.CLOSE);
        } else if (pending.readableBytes() > GATHER) {
            ctx.write(takePending());
        }
    }

    private ByteBuf takePending() {
        ByteBuf out = pending;
        pending = null;
        session.reply.target(null);
        return out;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (pending != null && !closing) {
            ctx.write(takePending());
        }
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable() && !closing) {
            // later, not inside whichever write or flush made the channel writable
            ctx.executor().execute(() -> drain(ctx));
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** Runs the backlog while the client keeps up, then reads again. */
    private void drain(ChannelHandlerContext ctx) {
        while (ctx.channel().isWritable() && !backlog.isEmpty() && !closing) {
            run(ctx, backlog.poll());
        }
        if (pending != null && !closing) {
            ctx.write(takePending());
        }
        ctx.flush();
        if (backlog.isEmpty() && !closing && !ctx.channel().config().isAutoRead()) {
            // the request timeout counts from now: the wait was the server's, not the client's
            session.requestStarted = session.requestStarted == 0 ? 0 : System.nanoTime() | 1;
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (pending != null) {
            takePending().release();
        }
        backlog.clear();
        commands.closed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (closing) {
            return;
        }
        closing = true;
        String error;
        if (cause instanceof ProtocolViolation) {
            error = cause.getMessage();
        } else if (cause instanceof IOException) {
            ctx.close(); // the peer reset the connection: nothing to tell it
            return;
        } else {
            error = "ERR " + cause;
        }
        server.protocolErrors.increment();
        System.err.println("bloomstore serve: client " + session.address() + ": " + error + "; closing the connection");
        ByteBuf out = pending != null ? takePending() : ctx.alloc().ioBuffer(error.length() + 3);
        session.reply.target(out);
        session.reply.error(error);
        session.reply.target(null);
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    }
}

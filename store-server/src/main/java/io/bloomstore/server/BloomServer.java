package io.bloomstore.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.ResourceLeakDetector;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code bloomstore serve}: the filter files of one folder served over the Redis protocol (RESP2
 * and RESP3), speaking RedisBloom's {@code BF.*} commands, so that any Redis client adds and
 * queries them (docs/SERVER.md). Built on Netty: one event-loop thread per core serves the
 * connections, and every thread adds to and queries the same mapped files at once, lock-free.
 * The files stay ordinary bloomstore files that other processes map and change meanwhile.
 */
public final class BloomServer implements AutoCloseable {
    /**
     * Linux's epoll through Netty's native library where it loads (x86_64 Linux; not when
     * {@code -Dio.netty.transport.noNative=true}), else the JDK's NIO: epoll reads and writes with
     * fewer system calls and no selected-key set.
     */
    private static final boolean EPOLL = Epoll.isAvailable();
    private static final String LEAK_DETECTION = "io.netty.leakDetection.level";
    private static final String EVENT_LOOP_THREADS = "io.netty.eventLoopThreads";

    private final ServerState state;
    private final EventLoopGroup acceptors;
    private final EventLoopGroup workers;
    private final List<Channel> listeners = new ArrayList<>();
    /** The tick's own thread: a sync of a large file takes long, and must not stall an event loop's clients. */
    private final ScheduledExecutorService tick = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "bloomstore-serve-tick");
        thread.setDaemon(true);
        return thread;
    });
    private final int filesFound;

    private BloomServer(ServerState state, EventLoopGroup acceptors, EventLoopGroup workers) throws IOException {
        this.state = state;
        this.acceptors = acceptors;
        this.workers = workers;
        this.filesFound = state.keyspace.keys().size();
        tick.scheduleWithFixedDelay(this::everySecond, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Starts serving {@code options.dir()}.
     *
     * @param options where to listen and how
     * @return the running server; {@link #close()} stops it
     * @throws IOException if the folder is not one, or an address cannot be bound (e.g. in use)
     */
    public static BloomServer start(ServerOptions options) throws IOException {
        if (!Files.isDirectory(options.dir())) {
            throw new IOException(options.dir() + " is not a folder: give the folder of the filter files to serve");
        }
        if (System.getProperty(LEAK_DETECTION) == null) {
            // Netty's default wraps every buffer in a tracking one and records a stack for one in 128,
            // a large part of a pipelined command's CPU (docs/SERVER.md, "Measured"). The server's
            // buffers have one owner each, the handler that writes or releases them; set the
            // property to look for a leak.
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        int loops = eventLoops();
        ServerState state = new ServerState(options, new Keyspace(options.dir(), Clock.systemUTC()));
        IoHandlerFactory io = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        EventLoopGroup acceptors = new MultiThreadIoEventLoopGroup(1, io);
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(loops, io);
        BloomServer server = new BloomServer(state, acceptors, workers);
        try {
            List<String> addresses = new ArrayList<>();
            if (options.port() >= 0) {
                Channel tcp = server.bootstrap(EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                        .bind(new InetSocketAddress(options.bind(), options.port())).syncUninterruptibly().channel();
                server.listeners.add(tcp);
                InetSocketAddress bound = (InetSocketAddress) tcp.localAddress();
                addresses.add(bound.getHostString() + ":" + bound.getPort());
            }
            if (options.unixSocket() != null) {
                Path socket = options.unixSocket();
                if (Files.exists(socket) && !Files.isRegularFile(socket) && !Files.isDirectory(socket)) {
                    Files.delete(socket); // a socket a previous server left, as Redis removes its own
                }
                Channel unix = EPOLL
                        ? server.bootstrap(EpollServerDomainSocketChannel.class)
                                .bind(new DomainSocketAddress(socket.toString())).syncUninterruptibly().channel()
                        : server.bootstrap(NioServerDomainSocketChannel.class)
                                .bind(UnixDomainSocketAddress.of(socket)).syncUninterruptibly().channel();
                server.listeners.add(unix);
                addresses.add(socket.toString());
            }
            state.listening = String.join(", ", addresses);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw new IOException("cannot listen on " + options.bind() + ":" + options.port()
                    + (options.unixSocket() != null ? " or " + options.unixSocket() : "") + ": " + e.getMessage(), e);
        }
    }

    /**
     * One event loop per core, unless Netty's own {@code -Dio.netty.eventLoopThreads} says how many:
     * where the clients run on the server's cores too, fewer loops wake less often (docs/SERVER.md,
     * "Measured").
     */
    static int eventLoops() {
        int loops = Integer.getInteger(EVENT_LOOP_THREADS, Runtime.getRuntime().availableProcessors());
        if (loops < 1) {
            throw new IllegalArgumentException("-D" + EVENT_LOOP_THREADS + "=" + loops + " leaves no event loop: give 1 or more");
        }
        return loops;
    }

    private ServerBootstrap bootstrap(Class<? extends ServerChannel> type) {
        return new ServerBootstrap().group(acceptors, workers).channel(type)
                .option(ChannelOption.SO_BACKLOG, 511)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64 << 10, 1 << 20))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        accept(channel);
                    }
                });
    }

    private void accept(Channel channel) {
        state.connectionsReceived.increment();
        if (channel.config() instanceof io.netty.channel.socket.SocketChannelConfig socket) {
            socket.setTcpNoDelay(true);
        }
        if (state.clients.size() >= state.options.maxClients()) {
            state.connectionsRejected.increment();
            System.err.println("bloomstore serve: client " + address(channel.remoteAddress())
                    + ": refused, max number of clients (" + state.options.maxClients() + ") reached");
            channel.writeAndFlush(Unpooled.copiedBuffer("-ERR max number of clients reached\r\n", StandardCharsets.US_ASCII))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        Session session = new Session(state.nextClientId.incrementAndGet(), channel.remoteAddress(),
                state.options.password() == null);
        channel.attr(ServerState.SESSION).set(session);
        state.clients.put(session.id, channel);
        channel.closeFuture().addListener(f -> state.clients.remove(session.id));
        serve(channel.pipeline(), state, session);
    }

    /** The handlers a connection's bytes go through, from the bytes read to the replies written. */
    static void serve(ChannelPipeline pipeline, ServerState state, Session session) {
        pipeline.addLast("requests", new RequestDecoder(session));
        pipeline.addLast("commands", new CommandHandler(state, session));
    }

    private static String address(SocketAddress address) {
        return address == null ? "?" : address.toString().replaceFirst("^/", "");
    }

    private void everySecond() {
        try {
            if (state.options.sync() == SyncPolicy.EVERYSEC) {
                Persistence.save(state);
            }
            state.keyspace.revalidate();
            long now = System.nanoTime();
            long limit = state.options.requestTimeout().toNanos();
            for (Channel channel : state.clients.values()) {
                Session session = channel.attr(ServerState.SESSION).get();
                long started = session == null ? 0 : session.requestStarted;
                // a connection the server stopped reading (its client does not read its replies) waits on the server
                if (started != 0 && now - started > limit && channel.config().isAutoRead()) {
                    System.err.println("bloomstore serve: client " + session.address() + ": a request took over "
                            + state.options.requestTimeout().toSeconds() + " s to arrive; closing the connection");
                    channel.close();
                }
            }
        } catch (RuntimeException e) {
            System.err.println("bloomstore serve: background tick: " + e);
        }
    }

    /**
     * Where the server listens.
     *
     * @return the bound addresses, e.g. {@code 127.0.0.1:6379}, comma-separated
     */
    public String listening() {
        return state.listening;
    }

    /**
     * The network transport serving the connections.
     *
     * @return {@code epoll} (Linux's, through Netty's native library) or {@code nio} (the JDK's)
     */
    public String transport() {
        return EPOLL ? "epoll" : "nio";
    }

    /**
     * The TCP port bound (the one the system picked, if the options gave 0).
     *
     * @return the port, or -1 if the server listens on a Unix socket only
     */
    public int port() {
        for (Channel channel : listeners) {
            if (channel.localAddress() instanceof InetSocketAddress inet) {
                return inet.getPort();
            }
        }
        return -1;
    }

    /**
     * The number of filter files in the folder when the server started.
     *
     * @return the count
     */
    public int filesFound() {
        return filesFound;
    }

    /** Stops listening, closes every connection, then syncs and closes every filter file. Idempotent. */
    @Override
    public void close() {
        // bounded waits: close runs in a shutdown hook, and a thread that meanwhile called System.exit
        // (an uncaught error) would wait for the hook forever while the hook waited for it.
        // The tick is let finish, not interrupted: an interrupt inside a file's fsync closes that
        // file's channel, and the final sync below would then fail for it.
        tick.shutdown();
        try {
            tick.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Channel listener : listeners) {
            listener.close().awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
        for (Channel client : state.clients.values()) {
            client.close();
        }
        acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        state.keyspace.close();
        if (state.options.unixSocket() != null) {
            try {
                Files.deleteIfExists(state.options.unixSocket());
            } catch (IOException e) {
                System.err.println("bloomstore serve: cannot remove " + state.options.unixSocket() + ": " + e.getMessage());
            }
        }
    }
}

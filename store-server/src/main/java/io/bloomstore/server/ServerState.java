package io.bloomstore.server;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** What every connection shares: the options, the folder's filters, the clients and INFO's counters. */
final class ServerState {
    static final AttributeKey<Session> SESSION = AttributeKey.valueOf("bloomstore.session");

    final ServerOptions options;
    final Keyspace keyspace;
    final long startedMillis = System.currentTimeMillis();
    final Map<Long, Channel> clients = new ConcurrentHashMap<>();
    final AtomicLong nextClientId = new AtomicLong();
    final LongAdder connectionsReceived = new LongAdder();
    final LongAdder connectionsRejected = new LongAdder();
    final CommandStats commandStats = new CommandStats();
    final LongAdder protocolErrors = new LongAdder();
    final LongAdder keysAdded = new LongAdder();
    final LongAdder keysQueried = new LongAdder();
    final LongAdder syncs = new LongAdder();
    volatile String listening = "";
    /** When every filter's adds were last all made durable (LASTSAVE), in Unix seconds: the start until then. */
    volatile long lastSaveSeconds = startedMillis / 1000;
    /** Whether a BGSAVE is under way. */
    final AtomicBoolean savingInBackground = new AtomicBoolean();

    ServerState(ServerOptions options, Keyspace keyspace) {
        this.options = options;
        this.keyspace = keyspace;
    }
}

package io.bloomstore.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@link BloomServer} serves: where, for whom, and within which limits.
 *
 * @param dir the folder of filter files; each key is one file in it
 * @param bind the address to listen on (loopback unless told otherwise)
 * @param port the TCP port; 0 for any free port; -1 for no TCP listener (a Unix socket only)
 * @param unixSocket a Unix domain socket to listen on as well, or null
 * @param password the password every connection must give (AUTH) before any other command, or null for none
 * @param sync when adds are forced to the device
 * @param maxClients the most connections served at once; more are told so and closed
 * @param defaultCapacity the capacity of a filter BF.ADD, BF.MADD and BF.INSERT create (RedisBloom: 100)
 * @param defaultError the error rate of such a filter (RedisBloom: 0.01)
 * @param requestTimeout how long a request may take to arrive whole once its first bytes have
 */
public record ServerOptions(Path dir, String bind, int port, Path unixSocket, byte[] password, SyncPolicy sync,
        int maxClients, long defaultCapacity, double defaultError, Duration requestTimeout) {
    /** Redis's port. */
    public static final int DEFAULT_PORT = 6379;
    /** Redis's default {@code maxclients}. */
    public static final int DEFAULT_MAX_CLIENTS = 10_000;

    /**
     * Checks the options.
     *
     * @param dir not null
     * @param bind not null
     * @param port -1 to 65535
     * @param unixSocket any, or null
     * @param password any, or null
     * @param sync not null
     * @param maxClients at least 1
     * @param defaultCapacity at least 1
     * @param defaultError strictly between 0 and 1
     * @param requestTimeout positive
     */
    public ServerOptions {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(sync, "sync");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (port < -1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range: give 0 to 65535");
        }
        if (port < 0 && unixSocket == null) {
            throw new IllegalArgumentException("nothing to listen on: give a port or a Unix socket");
        }
        if (maxClients < 1) {
            throw new IllegalArgumentException("max clients must be at least 1, not " + maxClients);
        }
        if (defaultCapacity < 1 || !(defaultError > 0 && defaultError < 1)) {
            throw new IllegalArgumentException("the default capacity must be at least 1 and the error rate between 0 and 1");
        }
    }

    /**
     * Loopback, Redis's port, no password, {@link SyncPolicy#EVERYSEC}, RedisBloom's defaults.
     *
     * @param dir the folder of filter files
     * @return the options
     */
    public static ServerOptions of(Path dir) {
        return new ServerOptions(dir, "127.0.0.1", DEFAULT_PORT, null, null, SyncPolicy.EVERYSEC, DEFAULT_MAX_CLIENTS,
                100, 0.01, Duration.ofSeconds(30));
    }

    /**
     * These options with another listener.
     *
     * @param newBind the address
     * @param newPort the port, 0 for any free one, -1 for none
     * @param newUnixSocket a Unix socket, or null
     * @return a copy
     */
    public ServerOptions withListener(String newBind, int newPort, Path newUnixSocket) {
        return new ServerOptions(dir, newBind, newPort, newUnixSocket, password, sync, maxClients, defaultCapacity,
                defaultError, requestTimeout);
    }

    /**
     * These options with a password, a sync policy and a client limit.
     *
     * @param newPassword the password, or null
     * @param newSync the sync policy
     * @param newMaxClients the limit
     * @return a copy
     */
    public ServerOptions withPolicy(byte[] newPassword, SyncPolicy newSync, int newMaxClients) {
        return new ServerOptions(dir, bind, port, unixSocket, newPassword, newSync, newMaxClients, defaultCapacity,
                defaultError, requestTimeout);
    }

    /**
     * These options with other defaults for filters that adds create.
     *
     * @param capacity at least 1
     * @param error strictly between 0 and 1
     * @return a copy
     */
    public ServerOptions withDefaults(long capacity, double error) {
        return new ServerOptions(dir, bind, port, unixSocket, password, sync, maxClients, capacity, error,
                requestTimeout);
    }
}

package io.bloomstore.server;

import java.net.SocketAddress;

/** One connection's state, shared by its handlers (all run on the connection's event-loop thread). */
final class Session {
    final long id;
    final SocketAddress remote;
    final long connectedMillis = System.currentTimeMillis();
    final Reply reply = new Reply();
    boolean authenticated;
    byte[] name;
    String libName;
    String libVersion;
    /** When the bytes of the request now arriving began (System.nanoTime), or 0 between requests; read by the server's tick. */
    volatile long requestStarted;
    long commands;
    /** Which of this connection's calls INFO commandstats times. */
    final CommandStats.Sampler sampler;
    /** A SCANDUMP or LOADCHUNK in progress on this connection, or null. */
    Dumps.Transfer transfer;

    Session(long id, SocketAddress remote, boolean authenticated) {
        this.id = id;
        this.remote = remote;
        this.authenticated = authenticated;
        this.sampler = new CommandStats.Sampler(id);
    }

    String address() {
        return remote == null ? "?" : remote.toString().replaceFirst("^/", "");
    }
}

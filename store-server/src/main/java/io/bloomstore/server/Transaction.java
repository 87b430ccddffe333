package io.bloomstore.server;

import java.util.ArrayList;
import java.util.List;

/**
 * One connection's MULTI ... EXEC, as Redis clients send it: redis-py's {@code pipeline()} and
 * Jedis's {@code multi()} wrap their commands in one by default. After MULTI a command is checked
 * (its name, its arity) and queued, answered {@code +QUEUED}; EXEC runs the queued commands one
 * after another and answers an array of their replies; DISCARD drops them. A command refused while
 * queued makes EXEC refuse the whole transaction ({@code EXECABORT}), as Redis does.
 *
 * <p>What it does not give: isolation. Redis runs a transaction while no other client runs; here
 * the queued commands run one after another on the connection's event loop while other connections,
 * and other processes mapping the same files, keep adding and querying. Each Bloom command is
 * atomic by itself, and adds commute, so a transaction of adds and queries ends as it would alone;
 * only the "was new" answer of an add and a count can see another client's keys of the meantime.
 * WATCH, whose promise is to notice exactly those, is refused rather than given without it.
 *
 * <p>The queue is bounded by the bytes of the commands in it, as one request is
 * ({@link RequestDecoder#MAX_REQUEST}): past it the command is refused and the transaction with it.
 */
final class Transaction {
    /** The texts of Redis 7's replies. */
    static final String NESTED = "ERR MULTI calls can not be nested";
    static final String EXEC_WITHOUT_MULTI = "ERR EXEC without MULTI";
    static final String DISCARD_WITHOUT_MULTI = "ERR DISCARD without MULTI";
    static final String ABORTED = "EXECABORT Transaction discarded because of previous errors.";
    static final String WATCH_INSIDE_MULTI = "ERR WATCH inside MULTI is not allowed";
    static final String WATCH_REFUSED = "ERR WATCH is not supported: bloomstore cannot tell whether another"
            + " client or process changed a key (its files are shared); send MULTI ... EXEC without it";

    private final long maxBytes;
    /** The commands queued since MULTI; null outside a transaction. */
    private List<byte[][]> queued;
    private long bytes;
    private boolean refused;

    Transaction(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Whether a MULTI is open: commands are queued, not run. */
    boolean isOpen() {
        return queued != null;
    }

    /**
     * Whether the command named {@code name} (lower case) runs at once even inside MULTI: the
     * transaction's own commands, and QUIT and RESET, which end the connection's state with it.
     */
    static boolean runsAtOnce(String name) {
        return switch (name) {
            case "multi", "exec", "discard", "watch", "quit", "reset" -> true;
            default -> false;
        };
    }

    /** MULTI. */
    void begin() throws RespError {
        if (queued != null) {
            throw new RespError(NESTED);
        }
        queued = new ArrayList<>();
        bytes = 0;
        refused = false;
    }

    /** Queues a command whose name and arity were checked; refuses it, and the transaction, past the bound. */
    void queue(byte[][] args) throws RespError {
        for (byte[] word : args) {
            bytes += word.length + RequestDecoder.ARG_OVERHEAD;
        }
        if (bytes > maxBytes) {
            refused = true;
            throw new RespError("ERR the commands queued since MULTI hold more than " + (maxBytes >> 20)
                    + " MiB: send EXEC sooner, in smaller transactions");
        }
        queued.add(args);
    }

    /** A command refused inside MULTI (unknown, wrong arity): EXEC will refuse the transaction. */
    void refuseIfOpen() {
        if (queued != null) {
            refused = true;
        }
    }

    /**
     * EXEC: ends the transaction.
     *
     * @return the commands to run, in the order they were queued
     * @throws RespError without MULTI, or if a command was refused while queued (the transaction is dropped)
     */
    List<byte[][]> take() throws RespError {
        if (queued == null) {
            throw new RespError(EXEC_WITHOUT_MULTI);
        }
        List<byte[][]> commands = queued;
        boolean wasRefused = refused;
        end();
        if (wasRefused) {
            throw new RespError(ABORTED);
        }
        return commands;
    }

    /** DISCARD. */
    void discard() throws RespError {
        if (queued == null) {
            throw new RespError(DISCARD_WITHOUT_MULTI);
        }
        end();
    }

    /** Drops whatever is queued: RESET, and the connection's end. */
    void end() {
        queued = null;
        bytes = 0;
        refused = false;
    }
}

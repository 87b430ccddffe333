package io.bloomstore.server;

/**
 * SAVE, BGSAVE and LASTSAVE, and WAIT, in the sense a Redis user gives them: SAVE makes every add
 * acknowledged so far durable before it answers (each filter with adds since its last sync is
 * synced: there is no snapshot to write, the files are the data), BGSAVE does the same on a thread
 * of its own and answers at once, LASTSAVE tells when the last such pass ended without a failure
 * (the server's tick makes one each second under {@code --sync everysec}). WAIT answers 0 at once:
 * there are no replicas to wait for.
 */
final class Persistence {
    private Persistence() {
    }

    /**
     * Syncs every filter with adds since its last sync; on success, LASTSAVE moves to now.
     *
     * @return how many filters could not be synced (each named on stderr)
     */
    static int save(ServerState server) {
        long started = System.currentTimeMillis() / 1000;
        int failed = server.keyspace.syncDirty();
        if (failed == 0) {
            server.lastSaveSeconds = Math.max(server.lastSaveSeconds, started);
        }
        return failed;
    }

    static void run(ServerState server, String name, byte[][] args, Reply out) throws RespError {
        switch (name) {
            case "save" -> {
                int failed = save(server);
                if (failed > 0) {
                    throw new RespError("ERR " + failed + " filter file(s) could not be synced: the server's log names"
                            + " each and why; the adds stay in the mapping and are synced again at the next try");
                }
                out.ok();
            }
            case "bgsave" -> {
                if (args.length > 2 || args.length == 2 && !Args.is(args[1], "SCHEDULE")) {
                    throw RespError.syntax();
                }
                if (!server.savingInBackground.compareAndSet(false, true)) {
                    throw new RespError("ERR Background save already in progress");
                }
                Thread saver = new Thread(() -> {
                    try {
                        save(server);
                    } finally {
                        server.savingInBackground.set(false);
                    }
                }, "bloomstore-serve-bgsave");
                saver.setDaemon(true);
                saver.start();
                out.simple("Background saving started");
            }
            case "lastsave" -> out.integer(server.lastSaveSeconds);
            case "wait" -> {
                Args.integer(args[1]);
                if (Args.integer(args[2]) < 0) {
                    throw new RespError("ERR timeout is negative");
                }
                out.integer(0); // no replicas: none to wait for, whatever the timeout
            }
            default -> throw new IllegalArgumentException(name);
        }
    }
}

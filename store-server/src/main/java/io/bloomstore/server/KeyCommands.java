package io.bloomstore.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The key commands, over the folder's files: a key is a filter file, so EXISTS, TYPE, KEYS and SCAN
 * read the folder's listing, DEL and FLUSHDB delete files, RENAME renames one and COPY writes a
 * consistent copy of a live one, each atomically (processes that map a file keep their mapping),
 * and MEMORY USAGE is a file's length. A file has no expiry: TTL answers -1 for a key that
 * exists, and EXPIRE is refused naming the way to forget keys (a windowed filter).
 */
final class KeyCommands {
    private KeyCommands() {
    }

    static void run(ServerState server, String name, byte[][] args, Reply out) throws RespError, IOException {
        Keyspace keyspace = server.keyspace;
        switch (name) {
            case "dbsize" -> out.integer(keyspace.keys().size());
            case "exists" -> {
                long count = 0;
                for (int i = 1; i < args.length; i++) {
                    count += keyspace.exists(args[i]) ? 1 : 0;
                }
                out.integer(count);
            }
            case "del", "unlink" -> {
                long count = 0;
                for (int i = 1; i < args.length; i++) {
                    count += keyspace.delete(args[i]) ? 1 : 0;
                }
                out.integer(count);
            }
            case "flushdb", "flushall" -> {
                if (args.length > 2 || args.length == 2 && !Args.is(args[1], "ASYNC") && !Args.is(args[1], "SYNC")) {
                    throw RespError.syntax();
                }
                for (byte[] key : keyspace.keys()) {
                    keyspace.delete(key);
                }
                out.ok();
            }
            case "rename" -> {
                keyspace.rename(args[1], args[2], true);
                out.ok();
            }
            case "renamenx" -> out.integer(keyspace.rename(args[1], args[2], false) ? 1 : 0);
            case "copy" -> copy(keyspace, args, out);
            case "type" -> out.simple(keyspace.exists(args[1]) ? "MBbloom--" : "none");
            case "keys" -> keys(server, args, out);
            case "scan" -> scan(server, args, out);
            case "ttl", "pttl" -> out.integer(keyspace.exists(args[1]) ? -1 : -2);
            case "persist" -> out.integer(0); // no key has a timeout to remove
            case "expire", "pexpire", "expireat", "pexpireat" -> throw new RespError("ERR " + CommandTable.upper(name)
                    + " is not supported: a filter has no expiry; to forget keys after a time, reserve a windowed"
                    + " filter (BS.RESERVEWINDOW key error_rate capacity duration), or DEL the key");
            case "memory" -> memory(keyspace, args, out);
            default -> throw new IllegalArgumentException(name);
        }
    }

    /** COPY source destination [DB 0] [REPLACE]: 1 if copied, 0 if the source has no file or the destination has one. */
    private static void copy(Keyspace keyspace, byte[][] args, Reply out) throws RespError {
        boolean replace = false;
        for (int i = 3; i < args.length; i++) {
            if (Args.is(args[i], "REPLACE")) {
                replace = true;
            } else if (Args.is(args[i], "DB") && i + 1 < args.length) {
                if (Args.integer(args[++i]) != 0) {
                    throw new RespError("ERR DB index is out of range");
                }
            } else {
                throw RespError.syntax();
            }
        }
        out.integer(keyspace.copy(args[1], args[2], replace) ? 1 : 0);
    }

    /** MEMORY USAGE key [SAMPLES n]: the bytes of the key's file, which is all the key holds; nil without one. */
    private static void memory(Keyspace keyspace, byte[][] args, Reply out) throws RespError, IOException {
        if (!Args.is(args[1], "USAGE")) {
            throw new RespError("ERR unknown subcommand '" + Args.text(args[1]) + "'. Try MEMORY HELP.");
        }
        if (args.length != 3 && !(args.length == 5 && Args.is(args[3], "SAMPLES"))) {
            throw RespError.syntax();
        }
        Path path = keyspace.path(args[2]);
        if (keyspace.exists(args[2]) && Files.isRegularFile(path)) {
            out.integer(Files.size(path));
        } else {
            out.nullValue();
        }
    }

    private static void keys(ServerState server, byte[][] args, Reply out) throws IOException {
        List<byte[]> matched = new ArrayList<>();
        for (byte[] key : server.keyspace.keys()) {
            if (Glob.matches(args[1], key, false)) {
                matched.add(key);
            }
        }
        out.array(matched.size());
        matched.forEach(out::bulk);
    }

    /** SCAN cursor [MATCH pattern] [COUNT n] [TYPE t]: the cursor is a place in the sorted listing of the folder. */
    private static void scan(ServerState server, byte[][] args, Reply out) throws RespError, IOException {
        Long cursor = Args.longOrNull(args[1]);
        if (cursor == null || cursor < 0) {
            throw new RespError("ERR invalid cursor");
        }
        byte[] pattern = null;
        long count = 10;
        boolean typeMatches = true;
        for (int i = 2; i < args.length; i++) {
            if (i + 1 >= args.length) {
                throw RespError.syntax();
            }
            if (Args.is(args[i], "MATCH")) {
                pattern = args[++i];
            } else if (Args.is(args[i], "COUNT")) {
                count = Args.integer(args[++i]);
                if (count < 1) {
                    throw RespError.syntax();
                }
            } else if (Args.is(args[i], "TYPE")) {
                typeMatches = Args.text(args[++i]).equalsIgnoreCase("MBbloom--");
            } else {
                throw RespError.syntax();
            }
        }
        List<byte[]> keys = server.keyspace.keys();
        int from = (int) Math.min(cursor, keys.size());
        int to = (int) Math.min(keys.size(), from + count);
        List<byte[]> page = new ArrayList<>();
        for (int i = from; i < to && typeMatches; i++) {
            if (pattern == null || Glob.matches(pattern, keys.get(i), false)) {
                page.add(keys.get(i));
            }
        }
        out.array(2);
        out.bulk(Long.toString(to >= keys.size() ? 0 : to));
        out.array(page.size());
        page.forEach(out::bulk);
    }
}

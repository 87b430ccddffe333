package io.bloomstore.server;

import io.bloomstore.FilterFullException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One connection's command dispatch: checks the name, the arity and authentication as Redis does,
 * queues the command inside MULTI ({@link Transaction}), else runs it. Redis's connection commands
 * are here; the key commands are in {@link KeyCommands}, SAVE and its kin in {@link Persistence}, the
 * Bloom commands in {@link BloomCommands}, SCANDUMP and LOADCHUNK in {@link Dumps}, INFO in {@link Info}.
 */
final class Commands {
    private final ServerState server;
    private final Session session;
    private final BloomCommands bloom;
    private final ValueCommands values;
    private final Dumps dumps;
    private final Transaction transaction = new Transaction(RequestDecoder.MAX_REQUEST);

    Commands(ServerState server, Session session) {
        this.server = server;
        this.session = session;
        this.bloom = new BloomCommands(server);
        this.values = new ValueCommands(server, bloom);
        this.dumps = new Dumps(server, session);
    }

    /** Runs one request and writes its reply; true if the connection is to be closed after it (QUIT). */
    boolean run(byte[][] args, Reply out) {
        CommandTable.Spec spec = CommandTable.find(args[0]);
        String name = spec != null ? spec.name() : CommandTable.lower(args[0]);
        CommandStats stats = server.commandStats;
        session.commands++;
        boolean running = false;
        try {
            if (spec == null) {
                transaction.refuseIfOpen();
                throw unknown(args);
            }
            if (!session.authenticated && !name.equals("auth") && !name.equals("hello") && !name.equals("quit")) {
                throw new RespError("NOAUTH Authentication required.");
            }
            if (!spec.arityFits(args.length)) {
                transaction.refuseIfOpen();
                throw RespError.wrongArity(name);
            }
            if (transaction.isOpen() && !Transaction.runsAtOnce(name)) {
                transaction.queue(args);
                out.simple("QUEUED");
                return false; // counted when EXEC runs it
            }
            running = true;
            stats.called(spec);
            if (!session.sampler.sample()) {
                return dispatch(name, args, out);
            }
            long started = System.nanoTime();
            try {
                return dispatch(name, args, out);
            } finally {
                stats.timed(spec, System.nanoTime() - started);
            }
        } catch (RespError e) {
            out.error(e.getMessage());
        } catch (FilterFullException e) {
            out.error("ERR " + e.getMessage());
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            out.error("ERR " + e.getMessage());
            System.err.println("bloomstore serve: client " + session.address() + ": " + name + ": " + e.getMessage());
        } catch (IOException e) {
            out.error("ERR " + e.getMessage());
            System.err.println("bloomstore serve: client " + session.address() + ": " + name + ": " + e.getMessage());
        }
        if (running) {
            stats.failed(spec);
        } else {
            stats.rejected(spec);
        }
        return false;
    }

    private static RespError unknown(byte[][] args) {
        StringBuilder text = new StringBuilder("ERR unknown command '").append(Args.text(args[0]))
                .append("', with args beginning with: ");
        for (int i = 1; i < args.length && text.length() < 128; i++) {
            text.append('\'').append(Args.text(args[i])).append("' ");
        }
        return new RespError(text.toString());
    }

    private boolean dispatch(String name, byte[][] args, Reply out) throws RespError, IOException {
        switch (name) {
            case "bf.add" -> bloom.add(args, out);
            case "bf.exists" -> bloom.exists(args, out);
            case "bf.madd" -> bloom.madd(args, out);
            case "bf.mexists" -> bloom.mexists(args, out);
            case "bf.insert" -> bloom.insert(args, out);
            case "bf.reserve" -> bloom.reserve(args, out);
            case "bf.info" -> bloom.info(args, out);
            case "bf.card" -> bloom.card(args, out);
            case "bs.reservewindow" -> bloom.reserveWindow(args, out);
            case "bs.info" -> bloom.bsInfo(args, out);
            case "bs.estimate" -> bloom.estimate(args, out);
            case "bs.merge" -> bloom.merge(args, out);
            case "bs.addvalue" -> values.addValue(args, out);
            case "bs.getvalue" -> values.getValue(args, out);
            case "bf.scandump" -> dumps.scanDump(args, out);
            case "bf.loadchunk" -> dumps.loadChunk(args, out);
            case "ping" -> ping(args, out);
            case "echo" -> out.bulk(args[1]);
            case "quit" -> {
                out.ok();
                return true;
            }
            case "hello" -> hello(args, out);
            case "auth" -> auth(args, out);
            case "select" -> {
                if (Args.integer(args[1]) != 0) {
                    throw new RespError("ERR DB index is out of range");
                }
                out.ok();
            }
            case "multi" -> {
                transaction.begin();
                out.ok();
            }
            case "exec" -> exec(out);
            case "discard" -> {
                transaction.discard();
                out.ok();
            }
            case "watch" -> throw new RespError(transaction.isOpen() ? Transaction.WATCH_INSIDE_MULTI
                    : Transaction.WATCH_REFUSED);
            case "unwatch" -> out.ok(); // nothing is ever watched
            case "reset" -> {
                transaction.end();
                session.reply.protocol(2);
                session.name = null;
                session.authenticated = server.options.password() == null;
                out.simple("RESET");
            }
            case "client" -> client(args, out);
            case "command" -> command(args, out);
            case "config" -> config(args, out);
            case "module" -> {
                if (!Args.is(args[1], "LIST")) {
                    throw new RespError("ERR MODULE " + Args.text(args[1]) + " is not supported: RedisBloom's"
                            + " commands are built in");
                }
                out.array(1);
                bloomModule(out);
            }
            case "info" -> Info.write(server, args, out);
            case "time" -> {
                long micros = System.currentTimeMillis() * 1000;
                out.array(2);
                out.bulk(Long.toString(micros / 1_000_000));
                out.bulk(Long.toString(micros % 1_000_000));
            }
            case "dbsize", "exists", "del", "unlink", "rename", "renamenx", "copy", "type", "keys", "scan", "flushdb", "flushall", "ttl", "pttl",
                    "persist", "expire", "pexpire", "expireat", "pexpireat", "memory" -> KeyCommands.run(server, name, args, out);
            case "save", "bgsave", "lastsave", "wait" -> Persistence.run(server, name, args, out);
            case "role" -> {
                out.array(3);
                out.bulk("master");
                out.integer(0);
                out.array(0);
            }
            default -> throw unknown(args);
        }
        return false;
    }

    /** The connection's end: a dump or restore it left unfinished is dropped, and a transaction never executed. */
    void closed() {
        dumps.abandon();
        transaction.end();
    }

    /** EXEC: the queued commands' replies, as one array, each command run as if sent alone. */
    private void exec(Reply out) throws RespError {
        List<byte[][]> commands = transaction.take();
        out.array(commands.size());
        for (byte[][] command : commands) {
            run(command, out); // never QUIT, which is not queued
        }
    }

    private void ping(byte[][] args, Reply out) throws RespError {
        if (args.length > 2) {
            throw RespError.wrongArity("ping");
        }
        if (args.length == 2) {
            out.bulk(args[1]);
        } else {
            out.simple("PONG");
        }
    }

    private void auth(byte[][] args, Reply out) throws RespError {
        if (args.length > 3) {
            throw RespError.syntax();
        }
        checkPassword(args.length == 3 ? args[1] : null, args[args.length - 1]);
        out.ok();
    }

    private void checkPassword(byte[] user, byte[] password) throws RespError {
        byte[] expected = server.options.password();
        if (expected == null) {
            throw new RespError("ERR AUTH <password> called without any password configured for the default user."
                    + " Are you sure your configuration is correct?");
        }
        boolean userOk = user == null || Args.is(user, "DEFAULT");
        if (!MessageDigest.isEqual(expected, password) || !userOk) {
            System.err.println("bloomstore serve: client " + session.address() + ": wrong password");
            throw new RespError("WRONGPASS invalid username-password pair or user is disabled.");
        }
        session.authenticated = true;
    }

    private void hello(byte[][] args, Reply out) throws RespError {
        int protocol = session.reply.protocol();
        int i = 1;
        if (args.length > 1) {
            Long version = Args.longOrNull(args[1]);
            if (version == null) {
                throw new RespError("ERR Protocol version is not an integer or out of range");
            }
            if (version != 2 && version != 3) {
                throw new RespError("NOPROTO unsupported protocol version");
            }
            protocol = version.intValue();
            i = 2;
        }
        for (; i < args.length; i++) {
            if (Args.is(args[i], "AUTH") && i + 2 < args.length) {
                checkPassword(args[i + 1], args[i + 2]);
                i += 2;
            } else if (Args.is(args[i], "SETNAME") && i + 1 < args.length) {
                session.name = clientName(args[i + 1]);
                i += 1;
            } else {
                throw new RespError("ERR Syntax error in HELLO option '" + Args.text(args[i]) + "'");
            }
        }
        if (!session.authenticated) {
            throw new RespError("NOAUTH HELLO must be called with the client already authenticated, otherwise the"
                    + " HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select"
                    + " the RESP protocol version at the same time");
        }
        session.reply.protocol(protocol);
        out.map(8);
        out.bulk("server");
        out.bulk("redis");
        out.bulk("version");
        out.bulk(Info.REDIS_VERSION);
        out.bulk("proto");
        out.integer(protocol);
        out.bulk("id");
        out.integer(session.id);
        out.bulk("mode");
        out.bulk("standalone");
        out.bulk("role");
        out.bulk("master");
        out.bulk("modules");
        out.array(1);
        bloomModule(out);
        out.bulk("bloomstore");
        out.bulk(Info.version());
    }

    /** The module entry of HELLO and MODULE LIST: RedisBloom's name and the version whose commands are served. */
    private static void bloomModule(Reply out) {
        out.map(4);
        out.bulk("name");
        out.bulk("bf");
        out.bulk("ver");
        out.integer(Info.REDISBLOOM_VERSION);
        out.bulk("path");
        out.bulk("bloomstore");
        out.bulk("args");
        out.array(0);
    }

    private static byte[] clientName(byte[] name) throws RespError {
        for (byte b : name) {
            if (b < '!' || b > '~') {
                throw new RespError("ERR Client names cannot contain spaces, newlines or special characters.");
            }
        }
        return name.length == 0 ? null : name;
    }

    private void client(byte[][] args, Reply out) throws RespError {
        String sub = CommandTable.lower(args[1]);
        switch (sub) {
            case "id" -> out.integer(session.id);
            case "setname" -> {
                if (args.length != 3) {
                    throw RespError.wrongArity("client|setname");
                }
                session.name = clientName(args[2]);
                out.ok();
            }
            case "getname" -> {
                if (session.name == null) {
                    out.nullValue();
                } else {
                    out.bulk(session.name);
                }
            }
            case "setinfo" -> {
                if (args.length != 4) {
                    throw RespError.wrongArity("client|setinfo");
                }
                if (Args.is(args[2], "LIB-NAME")) {
                    session.libName = Args.text(clientName(args[3]) == null ? new byte[0] : args[3]);
                } else if (Args.is(args[2], "LIB-VER")) {
                    session.libVersion = Args.text(args[3]);
                } else {
                    throw new RespError("ERR Unrecognized option '" + Args.text(args[2]) + "'");
                }
                out.ok();
            }
            case "info" -> out.verbatim(Info.clientLine(session) + "\n");
            case "list" -> {
                StringBuilder list = new StringBuilder();
                for (var channel : server.clients.values()) {
                    Session other = channel.attr(ServerState.SESSION).get();
                    if (other != null) {
                        list.append(Info.clientLine(other)).append('\n');
                    }
                }
                out.verbatim(list.toString());
            }
            default -> throw new RespError("ERR unknown subcommand '" + Args.text(args[1]) + "'. Try CLIENT HELP.");
        }
    }

    private void command(byte[][] args, Reply out) throws RespError {
        if (args.length == 1) {
            out.array(CommandTable.COMMANDS.size());
            for (CommandTable.Spec spec : CommandTable.COMMANDS.values()) {
                commandInfo(spec, out);
            }
            return;
        }
        String sub = CommandTable.lower(args[1]);
        switch (sub) {
            case "count" -> out.integer(CommandTable.COMMANDS.size());
            case "info" -> {
                out.array(args.length - 2);
                for (int i = 2; i < args.length; i++) {
                    CommandTable.Spec spec = CommandTable.find(args[i]);
                    if (spec == null) {
                        out.nullArray();
                    } else {
                        commandInfo(spec, out);
                    }
                }
            }
            case "docs" -> {
                List<CommandTable.Spec> specs = new ArrayList<>();
                if (args.length == 2) {
                    specs.addAll(CommandTable.COMMANDS.values());
                } else {
                    for (int i = 2; i < args.length; i++) {
                        CommandTable.Spec spec = CommandTable.find(args[i]);
                        if (spec != null) {
                            specs.add(spec);
                        }
                    }
                }
                out.map(specs.size());
                for (CommandTable.Spec spec : specs) {
                    out.bulk(spec.name());
                    out.map(2);
                    out.bulk("summary");
                    out.bulk(spec.name().startsWith("bf.") ? "RedisBloom's " + CommandTable.upper(spec.name())
                            + " over a bloomstore file" : CommandTable.upper(spec.name()));
                    out.bulk("group");
                    out.bulk(spec.name().startsWith("bf.") || spec.name().startsWith("bs.") ? "bf" : "generic");
                }
            }
            case "list" -> {
                out.array(CommandTable.COMMANDS.size());
                for (String name : CommandTable.COMMANDS.keySet()) {
                    out.bulk(name);
                }
            }
            case "getkeys" -> {
                if (args.length < 3) {
                    throw RespError.wrongArity("command|getkeys");
                }
                CommandTable.Spec spec = CommandTable.find(args[2]);
                if (spec == null || spec.firstKey() == 0) {
                    throw new RespError("ERR The command has no key arguments");
                }
                int words = args.length - 2;
                int last = spec.lastKey() < 0 ? words + spec.lastKey() : Math.min(spec.lastKey(), words - 1);
                List<byte[]> keys = new ArrayList<>();
                for (int i = spec.firstKey(); i <= last; i += spec.step()) {
                    keys.add(args[2 + i]);
                }
                out.array(keys.size());
                keys.forEach(out::bulk);
            }
            default -> throw new RespError("ERR unknown subcommand '" + Args.text(args[1]) + "'. Try COMMAND HELP.");
        }
    }

    private static void commandInfo(CommandTable.Spec spec, Reply out) {
        out.array(10);
        out.bulk(spec.name());
        out.integer(spec.arity());
        out.set(spec.flags().length);
        for (String flag : spec.flags()) {
            out.simple(flag);
        }
        out.integer(spec.firstKey());
        out.integer(spec.lastKey());
        out.integer(spec.step());
        out.set(0); // ACL categories
        out.set(0); // tips
        out.set(0); // key specifications: a set in Redis 7.0's RESP3, as are the subcommands
        out.set(0); // subcommands
    }

    private void config(byte[][] args, Reply out) throws RespError {
        if (!Args.is(args[1], "GET")) {
            throw new RespError("ERR CONFIG " + Args.text(args[1]) + " is not supported: bloomstore serve is"
                    + " configured by its command line");
        }
        if (args.length < 3) {
            throw RespError.wrongArity("config|get");
        }
        Map<String, String> values = Info.config(server);
        List<String[]> found = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            String pattern = Args.text(args[i]);
            for (Map.Entry<String, String> entry : values.entrySet()) {
                if (Glob.matches(pattern.getBytes(StandardCharsets.UTF_8),
                        entry.getKey().getBytes(StandardCharsets.UTF_8), true)) {
                    found.add(new String[] {entry.getKey(), entry.getValue()});
                }
            }
        }
        out.map(found.size());
        for (String[] pair : found) {
            out.bulk(pair[0]);
            out.bulk(pair[1]);
        }
    }
}

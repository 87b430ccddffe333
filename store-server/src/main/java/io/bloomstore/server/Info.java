package io.bloomstore.server;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * INFO's sections (server, clients, memory, persistence, stats, replication, keyspace, and when asked
 * for, commandstats), in Redis's field: value form.
 */
final class Info {
    /** The Redis version announced (HELLO, INFO): the 7.0 line, whose commands and replies are served. */
    static final String REDIS_VERSION = "7.0.15";
    /** The RedisBloom version whose BF.* syntax and replies are followed (MODULE LIST's encoding). */
    static final int REDISBLOOM_VERSION = 20423;

    private Info() {
    }

    static String version() {
        String v = Info.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    static void write(ServerState server, byte[][] args, Reply out) throws IOException {
        boolean all = args.length == 1;
        StringBuilder text = new StringBuilder();
        for (String section : new String[] {"server", "clients", "memory", "persistence", "stats", "replication",
            "commandstats", "keyspace"}) {
            boolean byDefault = !section.equals("commandstats"); // as Redis: only when asked, or with all
            boolean wanted = all && byDefault;
            for (int i = 1; i < args.length; i++) {
                String asked = Args.text(args[i]).toLowerCase(Locale.ROOT);
                wanted |= asked.equals(section) || asked.equals("all") || asked.equals("everything")
                        || asked.equals("default") && byDefault;
            }
            if (wanted) {
                section(server, section, text);
            }
        }
        out.verbatim(text.toString());
    }

    private static void section(ServerState server, String name, StringBuilder text) throws IOException {
        if (!text.isEmpty()) {
            text.append("\r\n");
        }
        text.append("# ").append(Character.toUpperCase(name.charAt(0))).append(name.substring(1)).append("\r\n");
        if (name.equals("commandstats")) {
            server.commandStats.write(text);
            return;
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        switch (name) {
            case "server" -> {
                long uptime = (System.currentTimeMillis() - server.startedMillis) / 1000;
                fields.put("redis_version", REDIS_VERSION);
                fields.put("bloomstore_version", version());
                fields.put("redis_mode", "standalone");
                fields.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
                fields.put("arch_bits", 64);
                fields.put("multiplexing_api", "netty");
                fields.put("java_version", System.getProperty("java.version"));
                fields.put("process_id", ProcessHandle.current().pid());
                fields.put("tcp_port", Math.max(server.options.port(), 0));
                fields.put("listening", server.listening);
                fields.put("uptime_in_seconds", uptime);
                fields.put("uptime_in_days", uptime / 86400);
                fields.put("executable", "bloomstore serve");
                fields.put("dir", server.keyspace.dir().toAbsolutePath());
                fields.put("event_loop_threads", BloomServer.eventLoops());
            }
            case "clients" -> {
                fields.put("connected_clients", server.clients.size());
                fields.put("maxclients", server.options.maxClients());
            }
            case "memory" -> {
                MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
                fields.put("used_memory", heap.getUsed());
                fields.put("used_memory_human", human(heap.getUsed()));
                fields.put("used_memory_peak", heap.getCommitted());
                fields.put("maxmemory", Runtime.getRuntime().maxMemory());
                fields.put("maxmemory_human", human(Runtime.getRuntime().maxMemory()));
                fields.put("mem_allocator", "jvm (filters are mapped files, outside the heap)");
                fields.put("open_filter_files", server.keyspace.openCount());
            }
            case "persistence" -> {
                fields.put("loading", 0);
                fields.put("sync_policy", server.options.sync().name().toLowerCase(Locale.ROOT));
                fields.put("syncs_done", server.syncs.sum());
                fields.put("rdb_changes_since_last_save", 0);
                fields.put("rdb_bgsave_in_progress", server.savingInBackground.get() ? 1 : 0);
                fields.put("rdb_last_save_time", server.lastSaveSeconds);
                fields.put("aof_enabled", 0);
            }
            case "stats" -> {
                fields.put("total_connections_received", server.connectionsReceived.sum());
                fields.put("total_commands_processed", server.commandStats.total());
                fields.put("rejected_connections", server.connectionsRejected.sum());
                fields.put("total_error_replies_protocol", server.protocolErrors.sum());
                fields.put("bf_items_added", server.keysAdded.sum());
                fields.put("bf_items_queried", server.keysQueried.sum());
            }
            case "replication" -> {
                fields.put("role", "master");
                fields.put("connected_slaves", 0);
            }
            default -> {
                int keys = server.keyspace.keys().size();
                if (keys > 0) {
                    fields.put("db0", "keys=" + keys + ",expires=0,avg_ttl=0");
                }
            }
        }
        fields.forEach((k, v) -> text.append(k).append(':').append(v).append("\r\n"));
    }

    private static String human(long bytes) {
        return bytes < 1 << 20 ? String.format(Locale.ROOT, "%.2fK", bytes / 1024.0)
                : String.format(Locale.ROOT, "%.2fM", bytes / 1048576.0);
    }

    static String clientLine(Session s) {
        long age = (System.currentTimeMillis() - s.connectedMillis) / 1000;
        return "id=" + s.id + " addr=" + s.address() + " name=" + (s.name == null ? "" : Args.text(s.name))
                + " age=" + age + " db=0 resp=" + s.reply.protocol() + " cmds=" + s.commands
                + " lib-name=" + (s.libName == null ? "" : s.libName) + " lib-ver="
                + (s.libVersion == null ? "" : s.libVersion);
    }

    /** What CONFIG GET answers: the settings clients and redis-benchmark ask about. */
    static Map<String, String> config(ServerState server) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("save", "");
        values.put("appendonly", "no");
        values.put("appendfsync", server.options.sync().name().toLowerCase(Locale.ROOT));
        values.put("port", Integer.toString(Math.max(server.options.port(), 0)));
        values.put("bind", server.options.bind());
        values.put("dir", server.keyspace.dir().toAbsolutePath().toString());
        values.put("maxclients", Integer.toString(server.options.maxClients()));
        values.put("databases", "1");
        values.put("timeout", "0");
        values.put("proto-max-bulk-len", Long.toString(RequestDecoder.MAX_BULK));
        values.put("requirepass", server.options.password() == null ? "" : "(set)");
        values.put("bf-error-rate", Double.toString(server.options.defaultError()));
        values.put("bf-initial-size", Long.toString(server.options.defaultCapacity()));
        values.put("bf-expansion-factor", "2");
        return values;
    }
}

package io.bloomstore.server;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The commands served, with Redis's arity convention (n: exactly n words with the name; -n: at
 * least n) and key positions: what {@code COMMAND} reports and what the dispatch checks first.
 */
final class CommandTable {
    /** A command; {@code index} is its place in {@link #COMMANDS}, for per-command counters. */
    record Spec(String name, int arity, String[] flags, int firstKey, int lastKey, int step, int index) {
        boolean arityFits(int words) {
            return arity >= 0 ? words == arity : words >= -arity;
        }
    }

    static final Map<String, Spec> COMMANDS = new LinkedHashMap<>();

    private static final String[] WRITE = {"write", "denyoom"};
    private static final String[] READ = {"readonly", "fast"};
    private static final String[] CONNECTION = {"noscript", "loading", "stale", "fast", "no_auth"};
    private static final String[] ADMIN = {"loading", "stale"};
    private static final String[] TRANSACTION = {"noscript", "loading", "stale", "fast", "allow_busy"};

    static {
        add("ping", -1, CONNECTION, 0, 0, 0);
        add("echo", 2, CONNECTION, 0, 0, 0);
        add("hello", -1, CONNECTION, 0, 0, 0);
        add("auth", -2, CONNECTION, 0, 0, 0);
        add("select", 2, CONNECTION, 0, 0, 0);
        add("quit", -1, CONNECTION, 0, 0, 0);
        add("reset", 1, CONNECTION, 0, 0, 0);
        add("multi", 1, TRANSACTION, 0, 0, 0);
        add("exec", 1, new String[] {"noscript", "loading", "stale", "skip_slowlog"}, 0, 0, 0);
        add("discard", 1, TRANSACTION, 0, 0, 0);
        add("watch", -2, TRANSACTION, 1, -1, 1);
        add("unwatch", 1, TRANSACTION, 0, 0, 0);
        add("client", -2, ADMIN, 0, 0, 0);
        add("command", -1, ADMIN, 0, 0, 0);
        add("info", -1, ADMIN, 0, 0, 0);
        add("config", -2, ADMIN, 0, 0, 0);
        add("module", -2, ADMIN, 0, 0, 0);
        add("time", 1, READ, 0, 0, 0);
        add("dbsize", 1, READ, 0, 0, 0);
        add("exists", -2, READ, 1, -1, 1);
        add("type", 2, READ, 1, 1, 1);
        add("del", -2, new String[] {"write"}, 1, -1, 1);
        add("unlink", -2, new String[] {"write", "fast"}, 1, -1, 1);
        add("keys", 2, new String[] {"readonly"}, 0, 0, 0);
        add("scan", -2, new String[] {"readonly"}, 0, 0, 0);
        add("rename", 3, new String[] {"write"}, 1, 2, 1);
        add("renamenx", 3, new String[] {"write", "fast"}, 1, 2, 1);
        add("copy", -3, new String[] {"write", "denyoom"}, 1, 2, 1);
        add("flushdb", -1, new String[] {"write"}, 0, 0, 0);
        add("flushall", -1, new String[] {"write"}, 0, 0, 0);
        add("ttl", 2, READ, 1, 1, 1);
        add("pttl", 2, READ, 1, 1, 1);
        add("persist", 2, new String[] {"write", "fast"}, 1, 1, 1);
        add("expire", -3, new String[] {"write", "fast"}, 1, 1, 1);
        add("pexpire", -3, new String[] {"write", "fast"}, 1, 1, 1);
        add("expireat", -3, new String[] {"write", "fast"}, 1, 1, 1);
        add("pexpireat", -3, new String[] {"write", "fast"}, 1, 1, 1);
        add("memory", -2, new String[] {"readonly"}, 0, 0, 0);
        add("save", 1, new String[] {"admin", "noscript"}, 0, 0, 0);
        add("bgsave", -1, new String[] {"admin", "noscript"}, 0, 0, 0);
        add("lastsave", 1, new String[] {"loading", "stale", "fast"}, 0, 0, 0);
        add("wait", 3, new String[] {"noscript"}, 0, 0, 0);
        add("role", 1, new String[] {"noscript", "loading", "stale", "fast"}, 0, 0, 0);
        add("bf.reserve", -4, WRITE, 1, 1, 1);
        add("bf.add", 3, WRITE, 1, 1, 1);
        add("bf.madd", -3, WRITE, 1, 1, 1);
        add("bf.insert", -4, WRITE, 1, 1, 1);
        add("bf.exists", 3, READ, 1, 1, 1);
        add("bf.mexists", -3, READ, 1, 1, 1);
        add("bf.info", -2, READ, 1, 1, 1);
        add("bf.card", 2, READ, 1, 1, 1);
        add("bf.scandump", 3, new String[] {"readonly"}, 1, 1, 1);
        add("bf.loadchunk", 4, new String[] {"write", "denyoom"}, 1, 1, 1);
        add("bs.reservewindow", -5, WRITE, 1, 1, 1);
        add("bs.info", 2, new String[] {"readonly"}, 1, 1, 1);
        add("bs.estimate", 3, new String[] {"readonly"}, 1, 2, 1);
        add("bs.merge", -3, new String[] {"write"}, 1, -1, 1);
        add("bs.addvalue", 4, WRITE, 1, 1, 1);
        add("bs.getvalue", 3, READ, 1, 1, 1);
    }

    private CommandTable() {
    }

    private static void add(String name, int arity, String[] flags, int first, int last, int step) {
        COMMANDS.put(name, new Spec(name, arity, flags, first, last, step, COMMANDS.size()));
    }

    /**
     * The commands by their name's hash, open-addressed: a request's name is looked up in any case
     * without making a string of it, which was a third of a one-key command's garbage.
     */
    private static final Spec[] BY_HASH = new Spec[Integer.highestOneBit(COMMANDS.size()) * 4];

    static {
        for (Spec spec : COMMANDS.values()) {
            int i = spec.name().hashCode() & (BY_HASH.length - 1);
            while (BY_HASH[i] != null) {
                i = (i + 1) & (BY_HASH.length - 1);
            }
            BY_HASH[i] = spec;
        }
    }

    /** The command named {@code word} in any case, or null if none is. */
    static Spec find(byte[] word) {
        int hash = 0;
        for (byte b : word) {
            hash = 31 * hash + fold(b); // String.hashCode of the lower-case name
        }
        for (int i = hash & (BY_HASH.length - 1); BY_HASH[i] != null; i = (i + 1) & (BY_HASH.length - 1)) {
            if (named(BY_HASH[i].name(), word)) {
                return BY_HASH[i];
            }
        }
        return null;
    }

    private static boolean named(String lowerName, byte[] word) {
        if (lowerName.length() != word.length) {
            return false;
        }
        for (int i = 0; i < word.length; i++) {
            if (lowerName.charAt(i) != fold(word[i])) {
                return false;
            }
        }
        return true;
    }

    /** A byte as {@link #lower} writes it: ASCII upper case to lower, every other byte as its Latin-1 character. */
    private static int fold(byte b) {
        int c = b & 0xFF;
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    static String lower(byte[] word) {
        char[] chars = new char[word.length];
        for (int i = 0; i < word.length; i++) {
            chars[i] = (char) fold(word[i]);
        }
        return new String(chars);
    }

    static String upper(String lower) {
        return lower.toUpperCase(Locale.ROOT);
    }
}

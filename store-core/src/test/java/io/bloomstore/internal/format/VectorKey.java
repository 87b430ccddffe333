package io.bloomstore.internal.format;

import io.bloomstore.BloomFilter;
import io.bloomstore.KeyHasher;
import java.util.HexFormat;

/**
 * A key of FORMAT.md's vector tables, as written there: {@code long} in decimal, {@code string}
 * between double quotes, {@code bytes} in hex. Each reaches the filter through the API of its own
 * type (a Long through the long overloads, a String through the CharSequence ones), so the vectors
 * check every canonical form, not only byte arrays.
 */
record VectorKey(String type, Object value) {
    static VectorKey of(String type, String text) {
        switch (type) {
            case "long":
                return new VectorKey(type, Long.parseLong(text));
            case "string":
                if (!(text.length() >= 2 && text.startsWith("\"") && text.endsWith("\""))) {
                    throw new AssertionError("FORMAT.md: string key not in double quotes: " + text);
                }
                return new VectorKey(type, text.substring(1, text.length() - 1));
            case "bytes":
                return new VectorKey(type, HexFormat.of().parseHex(text));
            default:
                throw new AssertionError("FORMAT.md: unknown key type " + type);
        }
    }

    /** The canonical bytes by FORMAT.md's rules, computed without the code under test. */
    byte[] canonicalBytes() {
        if (value instanceof Long key) {
            return FormatReference.canonicalBytes(key);
        }
        return value instanceof String key ? FormatReference.canonicalBytes(key) : (byte[]) value;
    }

    long hashWith(KeyHasher hasher) {
        if (value instanceof Long key) {
            return hasher.hash(key.longValue());
        }
        return value instanceof String key ? hasher.hash(key) : hasher.hash((byte[]) value);
    }

    boolean addTo(BloomFilter filter) {
        if (value instanceof Long key) {
            return filter.add(key.longValue());
        }
        return value instanceof String key ? filter.add(key) : filter.add((byte[]) value);
    }

    @Override
    public String toString() {
        String shown = value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : String.valueOf(value);
        return type + " " + shown;
    }
}

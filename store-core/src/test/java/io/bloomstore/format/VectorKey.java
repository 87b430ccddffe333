package io.bloomstore.format;

import io.bloomstore.filter.BloomFilter;
import io.bloomstore.hashing.KeyHasher;
import java.util.HexFormat;

/**
 * A key of FORMAT.md's vector tables, as written there: {@code long} in decimal, {@code string}
 * between double quotes, {@code bytes} in hex. Each reaches the filter through the API of its own
 * type, so the vectors check every canonical form, not only byte arrays.
 */
record VectorKey(String type, String text) {
    static VectorKey of(String type, String text) {
        if (!type.equals("long") && !type.equals("string") && !type.equals("bytes")) {
            throw new AssertionError("FORMAT.md: unknown key type " + type);
        }
        if (type.equals("string") && !(text.length() >= 2 && text.startsWith("\"") && text.endsWith("\""))) {
            throw new AssertionError("FORMAT.md: string key not in double quotes: " + text);
        }
        return new VectorKey(type, text);
    }

    /** The canonical bytes by FORMAT.md's rules, computed without the code under test. */
    byte[] canonicalBytes() {
        switch (type) {
            case "long":
                return FormatReference.canonicalBytes(Long.parseLong(text));
            case "string":
                return FormatReference.canonicalBytes(string());
            default:
                return HexFormat.of().parseHex(text);
        }
    }

    long hashWith(KeyHasher hasher) {
        switch (type) {
            case "long":
                return hasher.hash(Long.parseLong(text));
            case "string":
                return hasher.hash(string());
            default:
                return hasher.hash(HexFormat.of().parseHex(text));
        }
    }

    boolean addTo(BloomFilter filter) {
        switch (type) {
            case "long":
                return filter.add(Long.parseLong(text));
            case "string":
                return filter.add(string());
            default:
                return filter.add(HexFormat.of().parseHex(text));
        }
    }

    private String string() {
        return text.substring(1, text.length() - 1);
    }

    @Override
    public String toString() {
        return type + " " + text;
    }
}

package io.bloomstore.server;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Maps a key (any bytes) to the name of its file in the served folder, {@code NAME.bloom}, and
 * back. Letters, digits and {@code - _ . @ + = , ~ :} stand for themselves; every other byte is
 * {@code %XX} (two upper-case hex digits), and so is a leading dot, so that no key names a hidden
 * file, {@code .}, {@code ..}, a path with a separator, or holds a NUL: a key cannot reach outside
 * the folder. The mapping is one-to-one: {@link #key} accepts only names {@link #fileName} writes.
 */
final class KeyNames {
    static final String SUFFIX = ".bloom";
    /** The longest file name most file systems take (ext4, xfs, btrfs: 255 bytes). */
    static final int MAX_FILE_NAME = 255;
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private KeyNames() {
    }

    /**
     * The file name of {@code key}.
     *
     * @throws RespError if the key is empty or its encoded name would be longer than a file name can be
     */
    static String fileName(byte[] key) throws RespError {
        if (key.length == 0) {
            throw new RespError("ERR empty key: a key names a file, so it needs at least one byte");
        }
        StringBuilder name = new StringBuilder(key.length + SUFFIX.length());
        for (int i = 0; i < key.length; i++) {
            int b = key[i] & 0xFF;
            if (plain(b) && !(i == 0 && b == '.')) {
                name.append((char) b);
            } else {
                name.append('%').append((char) HEX[b >>> 4]).append((char) HEX[b & 15]);
            }
            if (name.length() + SUFFIX.length() > MAX_FILE_NAME) {
                throw new RespError("ERR key too long: its file name would pass " + MAX_FILE_NAME
                        + " bytes (each byte outside letters, digits and -_.@+=,~: takes 3)");
            }
        }
        return name.append(SUFFIX).toString();
    }

    /** The key whose file is {@code fileName}, or null if no key maps to that name. */
    static byte[] key(String fileName) {
        if (!fileName.endsWith(SUFFIX) || fileName.length() == SUFFIX.length()) {
            return null;
        }
        int end = fileName.length() - SUFFIX.length();
        ByteArrayOutputStream key = new ByteArrayOutputStream(end);
        for (int i = 0; i < end; i++) {
            char c = fileName.charAt(i);
            if (c == '%') {
                if (i + 2 >= end) {
                    return null;
                }
                int hi = hex(fileName.charAt(i + 1));
                int lo = hex(fileName.charAt(i + 2));
                if (hi < 0 || lo < 0) {
                    return null;
                }
                int b = hi << 4 | lo;
                if (plain(b) && !(i == 0 && b == '.')) {
                    return null; // not how fileName writes it: another key's name would collide
                }
                key.write(b);
                i += 2;
            } else if (c < 128 && plain(c) && !(i == 0 && c == '.')) {
                key.write(c);
            } else {
                return null;
            }
        }
        return key.toByteArray();
    }

    private static boolean plain(int b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                || b == '-' || b == '_' || b == '.' || b == '@' || b == '+' || b == '=' || b == ',' || b == '~'
                || b == ':';
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }
}

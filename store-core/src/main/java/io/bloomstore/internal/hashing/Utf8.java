package io.bloomstore.internal.hashing;

/**
 * UTF-8 encoding into a reused per-thread array, so hashing a string allocates nothing (the JDK's
 * encoders allocate a new array per call). Unpaired surrogates become '?', as in
 * {@code String.getBytes(StandardCharsets.UTF_8)}, so both give the same bytes for every string.
 */
public final class Utf8 {
    /** A growable byte array owned by one thread. */
    public static final class Scratch {
        public byte[] bytes = new byte[256];
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private Utf8() {
    }

    public static Scratch scratch() {
        return SCRATCH.get();
    }

    /** Encodes {@code s} into {@code scratch.bytes} (grown if needed) and returns the length. */
    public static int encode(CharSequence s, Scratch scratch) {
        int length = s.length();
        byte[] out = scratch.bytes;
        if (out.length < length * 3) {
            out = new byte[Math.max(length * 3, out.length * 2)];
            scratch.bytes = out;
        }
        int i = 0;
        // ASCII runs are the common case: one store per char.
        while (i < length) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            out[i++] = (byte) c;
        }
        int n = i;
        for (; i < length; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out[n++] = (byte) c;
            } else if (c < 0x800) {
                out[n++] = (byte) (0xC0 | (c >> 6));
                out[n++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                char low = i + 1 < length ? s.charAt(i + 1) : 0;
                if (Character.isHighSurrogate(c) && Character.isLowSurrogate(low)) {
                    int cp = Character.toCodePoint(c, low);
                    out[n++] = (byte) (0xF0 | (cp >> 18));
                    out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    out[n++] = (byte) (0x80 | (cp & 0x3F));
                    i++;
                } else {
                    out[n++] = '?';
                }
            } else {
                out[n++] = (byte) (0xE0 | (c >> 12));
                out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[n++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return n;
    }
}

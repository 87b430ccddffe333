package io.bloomstore.bench;

/**
 * The keys every benchmark and macro run uses, as a pure function of a key index, so both sides of
 * every comparison see exactly the same keys without storing them.
 *
 * <p>Indices {@code [0, n)} are the keys added to a filter of n keys; indices from
 * {@link #ABSENT_BASE} on are never added, so querying them measures the absent-key path (and
 * false positives among them happen at the filter's rate, the same for both sides).
 */
public final class Keys {
    /** Key indices at or above this are never added by any benchmark. */
    public static final long ABSENT_BASE = 1L << 62;
    private static final long SECOND_HALF_SALT = 0x5851_F42D_4C95_7F2DL;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Keys() {
    }

    /**
     * A bijective 64-bit mixer (the splitmix64 finaliser): distinct indices give distinct keys,
     * keys look random to both filters' hash functions, and it costs a few cycles.
     */
    public static long mix(long index) {
        long z = index + 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    /** The {@code long} key with index {@code index}. */
    public static long longKey(long index) {
        return mix(index);
    }

    /** Writes the 16-byte key with index {@code index} into {@code into[0..16)}. */
    public static void bytes16Key(long index, byte[] into) {
        putLongLittleEndian(into, 0, mix(index));
        putLongLittleEndian(into, 8, mix(index ^ SECOND_HALF_SALT));
    }

    /**
     * Writes the key-file line of index {@code index} (16 lower-case hex digits of its long key,
     * no line end) into {@code into[offset..offset+16)}.
     */
    public static void hexLine(long index, byte[] into, int offset) {
        long key = longKey(index);
        for (int i = 15; i >= 0; i--) {
            into[offset + i] = (byte) HEX[(int) (key & 0xF)];
            key >>>= 4;
        }
    }

    private static void putLongLittleEndian(byte[] into, int offset, long value) {
        for (int i = 0; i < 8; i++) {
            into[offset + i] = (byte) (value >>> (8 * i));
        }
    }
}

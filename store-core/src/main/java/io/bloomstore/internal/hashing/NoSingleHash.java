package io.bloomstore.internal.hashing;

import net.openhft.hashing.Access;
import net.openhft.hashing.LongHashFunction;

/**
 * The hash function of a filter whose probes need more than one 64-bit hash of a key (Guava's
 * 64-bit strategy takes both halves of a 128-bit hash): every call refuses, naming the key calls
 * that work, so a caller of the {@code *Hash} methods learns it at once instead of probing wrong cells.
 */
public final class NoSingleHash extends LongHashFunction {
    private static final long serialVersionUID = 1L;
    private final String why;

    /** @param why what the filter is and which calls take its keys, for the refusal */
    public NoSingleHash(String why) {
        this.why = why;
    }

    private UnsupportedOperationException refusal() {
        return new UnsupportedOperationException(why);
    }

    @Override
    public long hashLong(long input) {
        throw refusal();
    }

    @Override
    public long hashInt(int input) {
        throw refusal();
    }

    @Override
    public long hashShort(short input) {
        throw refusal();
    }

    @Override
    public long hashChar(char input) {
        throw refusal();
    }

    @Override
    public long hashByte(byte input) {
        throw refusal();
    }

    @Override
    public long hashVoid() {
        throw refusal();
    }

    @Override
    public <T> long hash(T input, Access<T> access, long offset, long length) {
        throw refusal();
    }
}

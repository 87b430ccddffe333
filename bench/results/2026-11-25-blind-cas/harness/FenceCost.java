import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Blocked add (7 bits in one 64-byte block) into a long[] of 1.2 MB: plain read+store vs volatile read + CAS vs blind OR. */
public class FenceCost {
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    static final long[] GOLDEN = new long[8];
    static {
        long p = 1;
        for (int i = 0; i < 8; i++) { p *= 0x9E3779B97F4A7C15L; GOLDEN[i] = p; }
    }
    static long mix(long x) { x ^= x >>> 33; x *= 0xff51afd7ed558ccdL; x ^= x >>> 33; x *= 0xc4ceb9fe1a85ec53L; return x ^ (x >>> 33); }

    /** The first word of the key's 512-bit block: the block by unsigned multiply-high, times 8 words. */
    static int firstWord(long h, long blocks) {
        return (int) ((Math.multiplyHigh(h, blocks) + ((h >> 63) & blocks)) << 3);
    }

    /** Probe i's bit in the block, 0 to 511. */
    static int bitInBlock(long step, int i) {
        return (int) ((step * GOLDEN[i]) >>> 55);
    }

    static boolean addCas(long[] a, long blocks, long h) {
        int base = firstWord(h, blocks);
        long step = mix(h + 1);
        boolean changed = false;
        for (int i = 0; i < 7; i++) {
            int bit = bitInBlock(step, i);
            int w = base + (bit >>> 6);
            long mask = 1L << bit;
            while (true) {
                long word = (long) LONGS.getVolatile(a, w);
                if ((word & mask) != 0) break;
                if (LONGS.compareAndSet(a, w, word, word | mask)) { changed = true; break; }
            }
        }
        return changed;
    }

    static boolean addPlain(long[] a, long blocks, long h) {
        int base = firstWord(h, blocks);
        long step = mix(h + 1);
        boolean changed = false;
        for (int i = 0; i < 7; i++) {
            int bit = bitInBlock(step, i);
            int w = base + (bit >>> 6);
            long mask = 1L << bit;
            long word = a[w];
            if ((word & mask) == 0) { a[w] = word | mask; changed = true; }
        }
        return changed;
    }

    static boolean addRelease(long[] a, long blocks, long h) { // plain read, setRelease store (no fence on x86)
        int base = firstWord(h, blocks);
        long step = mix(h + 1);
        boolean changed = false;
        for (int i = 0; i < 7; i++) {
            int bit = bitInBlock(step, i);
            int w = base + (bit >>> 6);
            long mask = 1L << bit;
            long word = (long) LONGS.getAcquire(a, w);
            if ((word & mask) == 0) { LONGS.setRelease(a, w, word | mask); changed = true; }
        }
        return changed;
    }

    static boolean addPlainNoBranch(long[] a, long blocks, long h) {
        int base = firstWord(h, blocks);
        long step = mix(h + 1);
        long missing = 0;
        for (int i = 0; i < 7; i++) {
            int bit = bitInBlock(step, i);
            int w = base + (bit >>> 6);
            long mask = 1L << bit;
            long word = a[w];
            missing |= mask & ~word;
            a[w] = word | mask;
        }
        return missing != 0;
    }

    static boolean addCasNoBranch(long[] a, long blocks, long h) {
        int base = firstWord(h, blocks);
        long step = mix(h + 1);
        long missing = 0;
        for (int i = 0; i < 7; i++) {
            int bit = bitInBlock(step, i);
            int w = base + (bit >>> 6);
            long mask = 1L << bit;
            long word;
            do {
                word = (long) LONGS.getVolatile(a, w);
            } while (!LONGS.compareAndSet(a, w, word, word | mask));
            missing |= mask & ~word;
        }
        return missing != 0;
    }

    static boolean addTwoPhase(long[] a, long blocks, long h, boolean unconditional) {
        int base = firstWord(h, blocks);
        long step = mix(h + 1);
        long missing = 0;
        for (int i = 0; i < 7; i++) {
            int bit = bitInBlock(step, i);
            missing |= (1L << bit) & ~(long) LONGS.getVolatile(a, base + (bit >>> 6));
        }
        if (missing == 0) {
            return false;
        }
        long changed = 0;
        for (int i = 0; i < 7; i++) {
            int bit = bitInBlock(step, i);
            int w = base + (bit >>> 6);
            long mask = 1L << bit;
            if (unconditional || (missing & mask) != 0) {
                long word;
                do {
                    word = (long) LONGS.getVolatile(a, w);
                } while (unconditional ? !LONGS.compareAndSet(a, w, word, word | mask)
                        : (word & mask) == 0 && !LONGS.compareAndSet(a, w, word, word | mask));
                changed |= mask & ~word;
            }
        }
        return changed != 0;
    }

    public static void main(String[] args) {
        long n = Long.parseLong(args[0]);
        long blocks = n * 10 / 512 + 1;
        int rounds = Integer.parseInt(args[1]);
        for (int r = 0; r < rounds; r++) {
            for (int mode = 0; mode < 7; mode++) {
                long[] a = new long[(int) (blocks * 8)];
                long t0 = System.nanoTime();
                long added = 0;
                for (long k = 0; k < n; k++) {
                    long h = mix(k * 0x9E3779B97F4A7C15L + r);
                    added += (mode == 0 ? addCas(a, blocks, h) : mode == 1 ? addPlain(a, blocks, h) : mode == 2 ? addRelease(a, blocks, h) : mode == 3 ? addPlainNoBranch(a, blocks, h) : mode == 4 ? addCasNoBranch(a, blocks, h) : addTwoPhase(a, blocks, h, mode == 6)) ? 1 : 0;
                }
                long t = System.nanoTime() - t0;
                if (r > 0) System.out.printf("round %d %s: %.1f ns/add (%d new)%n", r, new String[] {"cas      ", "plain    ", "release  ", "plainNoBr", "casNoBr  ", "twoPhase ", "twoPhUnc "}[mode], (double) t / n, added);
            }
        }
    }
}

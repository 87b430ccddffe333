package io.bloomstore.internal.map;

import io.bloomstore.internal.cells.FileMapping;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.files.TemporaryFile;
import io.bloomstore.internal.hashing.CellsChecksum;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The build of a Bloomier map file: pairs are spooled as they come, then deduplicated, peeled and
 * assigned into the table of a temporary file that is published under the target's name when
 * complete (a failed build leaves nothing).
 *
 * <p>Memory: nothing grows on the heap. Each pair is spooled as 32 bytes (key hash, a second hash
 * that tells a repeated key from two keys whose key hashes collide, value, line number) to a
 * temporary file beside the target, and the build's working arrays live in a second, mapped one:
 * a hash table of the spooled pairs (4 bytes × a power of two ≥ 1.5 n) that the peeling's arrays
 * reuse (an int of XORed pair numbers and an int queue entry a slot), a count byte a slot, and the
 * peeling order (an int and a byte a pair). With about 1.13 slots a pair that is 47 to 54 bytes a
 * pair in all, in the page cache (300 M pairs: about 16 GB), besides the output table.
 */
public final class MapBuild implements AutoCloseable {
    /** Seeds a build tries before it gives up: a 3-wise fuse graph of 10^4 keys or more peels at the first in practice. */
    public static final int MAX_ATTEMPTS = 100;
    private static final int RECORD = 32;
    private static final int BUFFER = 1 << 20;

    /** The phases of a build here, in that order. */
    public enum Step {
        /** The spooled pairs checked for repeated keys. */
        CHECK,
        /** The table solved from the spooled pairs. */
        PEEL
    }

    /** What a build reports its phases to, in bytes of spooled pairs. */
    public interface Phases {
        Phase begin(Step step, long totalBytes);

        /** One phase under way. */
        interface Phase extends AutoCloseable {
            void update(long done);

            @Override
            void close();
        }
    }

    private final Path target;
    private final int valueBits;
    private final int fingerprintBits;
    private final long keySeed;
    private final Phases progress;
    private final TemporaryFile spool;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER).order(ByteOrder.nativeOrder());
    private long pairs;

    /**
     * @param target the map file to write; its directory holds the temporaries
     * @param valueBits R, 1 to 55
     * @param fingerprintBits F, 1 to 56 − R
     * @param keySeed the XXH3-64 seed the caller hashes keys with
     */
    public MapBuild(Path target, int valueBits, int fingerprintBits, long keySeed, Phases progress)
            throws IOException {
        if (valueBits < 1 || fingerprintBits < 1 || valueBits + fingerprintBits > MapHeader.MAX_SLOT_BITS) {
            throw new IllegalArgumentException("value bits " + valueBits + " and fingerprint bits " + fingerprintBits
                    + " do not fit: each at least 1, together at most " + MapHeader.MAX_SLOT_BITS);
        }
        this.target = target;
        this.valueBits = valueBits;
        this.fingerprintBits = fingerprintBits;
        this.keySeed = keySeed;
        this.progress = progress;
        this.spool = TemporaryFile.beside(target, "pairs");
    }

    /** The largest value R bits hold. */
    public long maxValue() {
        return valueBits == 64 ? -1 : (1L << valueBits) - 1;
    }

    /**
     * Adds a pair.
     *
     * @param keyHash the key's XXH3-64 hash with the key seed
     * @param checkHash an independent 64-bit hash of the key, to tell a repeated key from a collision of key hashes
     * @param value 0 to {@link #maxValue()}
     * @param line the line (or call) number that errors name
     */
    public void put(long keyHash, long checkHash, long value, long line) throws IOException {
        if (value < 0 || value > maxValue()) {
            throw new IllegalArgumentException("line " + line + ": value " + Long.toUnsignedString(value)
                    + " does not fit in " + valueBits + " value bits (0 to " + maxValue() + "); give more --value-bits");
        }
        if (pairs == MapHeader.MAX_PAIRS) {
            throw new IllegalArgumentException("line " + line + ": a map holds at most " + MapHeader.MAX_PAIRS
                    + " pairs; split the input into several maps");
        }
        if (buffer.remaining() < RECORD) {
            flush();
        }
        buffer.putLong(keyHash).putLong(checkHash).putLong(value).putLong(line);
        pairs++;
    }

    private void flush() throws IOException {
        buffer.flip();
        FilterFiles.writeFully(spool.channel(), buffer);
        buffer.clear();
    }

    /**
     * Builds and publishes the map from the pairs put.
     *
     * @param replace whether an existing target is replaced
     * @param source how errors name the input, with a trailing space ("pairs.tsv "), or empty
     * @return the published header
     * @throws IllegalArgumentException naming the lines, for a key given two values or two keys whose hashes collide
     */
    public MapHeader publish(boolean replace, String source) throws IOException {
        flush();
        long spoolLength = pairs * RECORD;
        if (spoolLength == 0) {
            return write(replace, null, 0);
        }
        try (FileMapping spooled = FileMapping.map(spool.path(), spool.reopen(), spoolLength, false)) {
            BytesStore<?, ?> records = spooled.store();
            int segmentLength0 = FuseGraph.segmentLength(pairs);
            // the slots of the distinct pairs, at most as many as all: ceil(capacity / L) · L grows by at most L
            long slots0 = (long) (FuseGraph.segmentCount(pairs, segmentLength0) + 3) * segmentLength0;
            long table = Long.highestOneBit(Math.max(2, pairs + pairs / 2)) * 2;
            long shared = Math.max(4 * table, 8 * slots0);
            long scratchLength = shared + slots0 + 5 * pairs;
            try (TemporaryFile scratchFile = TemporaryFile.beside(target, "scratch")) {
                scratchFile.channel().write(ByteBuffer.allocate(1), scratchLength - 1); // sparse: zero pages cost nothing until touched
                try (FileMapping scratch = FileMapping.map(scratchFile.path(), scratchFile.reopen(), scratchLength, false)) {
                    long distinct = deduplicate(records, scratch.store(), table, source);
                    return write(replace, new Work(records, scratch.store(), shared), distinct);
                }
            }
        }
    }

    /** The spooled pairs and the scratch arrays, for the peeling. */
    private record Work(BytesStore<?, ?> records, BytesStore<?, ?> scratch, long countsOffset) {
    }

    /**
     * Marks every repeat of a pair (same key, same value) as dropped (its line negated) and fails on
     * a key with two values; open addressing on the key hash, linear probing.
     *
     * @return the distinct pairs
     */
    private long deduplicate(BytesStore<?, ?> records, BytesStore<?, ?> scratch, long table, String source) throws IOException {
        long mask = table - 1;
        long distinct = 0;
        try (Phases.Phase phase = progress.begin(Step.CHECK, pairs * RECORD)) {
            for (long i = 0; i < pairs; i++) {
                long at = i * RECORD;
                long keyHash = records.readLong(at);
                for (long slot = FuseGraph.mix(keyHash) & mask; ; slot = (slot + 1) & mask) {
                    int held = scratch.readInt(slot * 4);
                    if (held == 0) {
                        scratch.writeInt(slot * 4, (int) (i + 1));
                        distinct++;
                        break;
                    }
                    long other = (held - 1L) * RECORD;
                    if (records.readLong(other) != keyHash) {
                        continue;
                    }
                    long line = records.readLong(at + 24);
                    long otherLine = records.readLong(other + 24);
                    if (records.readLong(other + 8) != records.readLong(at + 8)) {
                        throw new IllegalArgumentException(source + "lines " + otherLine + " and " + line + " hold different keys whose"
                                + " 64-bit hashes collide under seed 0x" + Long.toHexString(keySeed)
                                + " (a chance of about n²/2^65); build again with another --seed");
                    }
                    long value = records.readLong(at + 16);
                    long otherValue = records.readLong(other + 16);
                    if (value != otherValue) {
                        throw new IllegalArgumentException(source + "line " + line + ": its key was given another value at line "
                                + otherLine + " (" + value + ", not " + otherValue + "); a map holds one value a key:"
                                + " remove one of the two lines");
                    }
                    records.writeLong(at + 24, -line); // the same pair again: stored once
                    break;
                }
                if ((i & 0xFFFF) == 0) {
                    phase.update(at);
                }
            }
            phase.update(pairs * RECORD);
        }
        return distinct;
    }

    private MapHeader write(boolean replace, Work work, long distinct) throws IOException {
        int segmentLength = FuseGraph.segmentLength(distinct);
        int segmentCount = FuseGraph.segmentCount(distinct, segmentLength);
        MapHeader shape = new MapHeader(valueBits, fingerprintBits, segmentLength, segmentCount, distinct, keySeed, 0, 1,
                System.currentTimeMillis(), 0);
        MapHeader[] written = new MapHeader[1];
        FilterFiles.publish(target, replace, shape.fileLength(), (FileChannel channel, TemporaryFile temporary) -> {
            FilterFiles.writeZeros(channel, shape.fileLength());
            try (FileMapping file = FileMapping.map(temporary.path(), temporary.reopen(), shape.fileLength(), false)) {
                BytesStore<?, ?> out = file.store();
                int attempt = 1;
                long seed = FuseGraph.constructionSeed(keySeed, attempt);
                if (work != null) {
                    while (!peel(work, shape, seed, distinct)) {
                        if (++attempt > MAX_ATTEMPTS) {
                            throw new IllegalStateException(target + ": the fuse graph of " + distinct + " keys did not "
                                    + "peel with " + MAX_ATTEMPTS + " seeds; build again with another --seed");
                        }
                        seed = FuseGraph.constructionSeed(keySeed, attempt);
                    }
                    assign(work, shape, seed, distinct, out);
                }
                long checksum = CellsChecksum.of(out, MapHeader.TABLE_START, shape.tableLength(), 0);
                MapHeader header = new MapHeader(valueBits, fingerprintBits, segmentLength, segmentCount, distinct, keySeed,
                        seed, attempt, shape.createdMillis(), checksum);
                out.write(0, header.encode());
                file.sync();
                written[0] = header;
            }
        });
        return written[0];
    }

    /**
     * Graf &amp; Lemire's peeling, on pair numbers instead of hashes: each slot keeps the count of
     * keys on it (times 4) with the XOR of their positions 0–2 in the low two bits, and the XOR of
     * their pair numbers, so a slot with one key names it and its position. Keys are peeled off
     * slots they have alone, into a stack of (pair, position).
     *
     * @return whether every key peeled
     */
    private boolean peel(Work work, MapHeader shape, long seed, long distinct) throws IOException {
        BytesStore<?, ?> records = work.records();
        BytesStore<?, ?> s = work.scratch();
        long slots = shape.slots();
        int length = shape.segmentLength();
        long countLength = (long) shape.segmentCount() * length;
        long xors = 0; // as onSlot has it
        long queue = 4 * slots;
        long counts = work.countsOffset();
        long stack = counts + slots;
        long stackWhich = stack + 4 * distinct;
        s.zeroOut(0, counts + slots);
        try (Phases.Phase phase = progress.begin(Step.PEEL, 2 * pairs * RECORD)) {
            for (long i = 0; i < pairs; i++) {
                long at = i * RECORD;
                if (records.readLong(at + 24) < 0) {
                    continue;
                }
                long h = FuseGraph.graphHash(records.readLong(at), seed);
                long s0 = FuseGraph.slot0(h, countLength);
                if (!onSlot(s, counts, s0, 0, i) || !onSlot(s, counts, FuseGraph.slot1(h, s0, length), 1, i)
                        || !onSlot(s, counts, FuseGraph.slot2(h, s0, length), 2, i)) {
                    return false; // 64 keys on one slot: a degenerate graph, another seed
                }
                if ((i & 0xFFFF) == 0) {
                    phase.update(at);
                }
            }
            long queued = 0;
            for (long slot = 0; slot < slots; slot++) {
                if ((s.readByte(counts + slot) & 0xFF) >>> 2 == 1) {
                    s.writeInt(queue + 4 * queued++, (int) slot);
                }
            }
            long peeled = 0;
            while (queued > 0) {
                long slot = s.readInt(queue + 4 * --queued);
                int count = s.readByte(counts + slot) & 0xFF;
                if (count >>> 2 != 1) {
                    continue;
                }
                int pair = s.readInt(xors + 4 * slot);
                int which = count & 3;
                s.writeInt(stack + 4 * peeled, pair);
                s.writeByte(stackWhich + peeled, (byte) which);
                peeled++;
                long h = FuseGraph.graphHash(records.readLong(pair * (long) RECORD), seed);
                for (int other = which + 1; other <= which + 2; other++) {
                    long otherSlot = FuseGraph.slot(other, h, countLength, length);
                    int otherCount = s.readByte(counts + otherSlot) & 0xFF;
                    if (otherCount >>> 2 == 2) {
                        s.writeInt(queue + 4 * queued++, (int) otherSlot);
                    }
                    s.writeByte(counts + otherSlot, (byte) ((otherCount - 4) ^ (other % 3)));
                    s.writeInt(xors + 4 * otherSlot, s.readInt(xors + 4 * otherSlot) ^ pair);
                }
                if ((peeled & 0xFFFF) == 0) {
                    phase.update((pairs + peeled) * RECORD);
                }
            }
            phase.update(2 * pairs * RECORD);
            return peeled == distinct;
        }
    }

    /** Puts pair {@code pair} on {@code slot} as its position {@code which}; false if the slot's count would overflow. */
    private static boolean onSlot(BytesStore<?, ?> s, long counts, long slot, int which, long pair) {
        int count = (s.readByte(counts + slot) & 0xFF) + 4;
        if (count > 0xFF) {
            return false;
        }
        s.writeByte(counts + slot, (byte) (count ^ which));
        s.writeInt(4 * slot, s.readInt(4 * slot) ^ (int) pair);
        return true;
    }

    /** Assigns the slots in the reverse order of peeling: each key's own slot makes its three XOR to its stored word. */
    private void assign(Work work, MapHeader shape, long seed, long distinct, BytesStore<?, ?> out) {
        BytesStore<?, ?> records = work.records();
        BytesStore<?, ?> s = work.scratch();
        int length = shape.segmentLength();
        long countLength = (long) shape.segmentCount() * length;
        int bits = shape.slotBits();
        long stack = work.countsOffset() + shape.slots();
        long stackWhich = stack + 4 * distinct;
        long start = MapHeader.TABLE_START;
        for (long i = distinct - 1; i >= 0; i--) {
            long at = s.readInt(stack + 4 * i) * (long) RECORD;
            int which = s.readByte(stackWhich + i);
            long keyHash = records.readLong(at);
            long word = (FuseGraph.fingerprint(keyHash, fingerprintBits) << valueBits) | records.readLong(at + 16);
            long h = FuseGraph.graphHash(keyHash, seed);
            long own = FuseGraph.slot(which, h, countLength, length);
            long other1 = FuseGraph.slot(which + 1, h, countLength, length);
            long other2 = FuseGraph.slot(which + 2, h, countLength, length);
            FuseGraph.writeSlot(out, start, own, bits, word ^ FuseGraph.readSlot(out, start, other1, bits)
                    ^ FuseGraph.readSlot(out, start, other2, bits));
        }
    }

    /** The pairs put so far, repeats included. */
    public long pairsPut() {
        return pairs;
    }

    @Override
    public void close() {
        spool.close();
    }
}

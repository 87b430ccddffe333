package io.bloomstore.internal.format;

import static org.junit.jupiter.api.Assertions.*;

import com.google.common.hash.Funnels;
import io.bloomstore.BloomFilter;
import io.bloomstore.GuavaFilters;
import io.bloomstore.OpenMode;
import io.bloomstore.SparkSketches;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/FORMAT.md's vectors of the imported layouts: each row's cells are the bits the library
 * itself sets for the key in an empty filter of the row's shape (Guava's {@code readFrom} and
 * {@code put}, the sketch's {@code readFrom} and {@code put*}), and the cells bloomstore sets for
 * the key in its import of that empty filter. So the document, the library and the code agree.
 */
class ImportedFormatTest {
    private static final FormatDocument DOC = FormatDocument.load();

    @TempDir
    Path dir;

    @Test
    void vectorsAreTheBitsTheLibrarySetsAndTheCellsTheCodeSets() throws Exception {
        List<Map<String, String>> rows = DOC.table("imported-probe-vectors");
        assertTrue(rows.size() >= 20, "vectors for both layouts, both Guava strategies, both sketch versions");
        List<String> differences = new ArrayList<>();
        int n = 0;
        for (Map<String, String> row : rows) {
            VectorKey key = VectorKey.of(row.get("key type"), row.get("key"));
            boolean guava = row.get("layout").equals("guava");
            long seedField = Long.decode(row.get("seed field"));
            int words = Math.toIntExact(Long.parseLong(row.get("m")) / 64);
            int k = Integer.parseInt(row.get("k"));
            byte[] empty = guava ? guavaStream((int) seedField, k, words) : sparkStream(seedField, k, words);
            List<Long> documented = row.get("cells set, ascending").isEmpty() ? List.of()
                    : List.of(row.get("cells set, ascending").split(", ")).stream().map(Long::valueOf).toList();
            List<Long> byLibrary = setBits(guava ? guavaPut(empty, key) : sparkPut(empty, key), guava ? 2 : seedField >>> 32 == 2 ? 12 : 8);
            Path file = dir.resolve("vector-" + n++ + ".bloom");
            if (guava) {
                GuavaFilters.importStream(new ByteArrayInputStream(empty), file);
            } else {
                SparkSketches.importStream(new ByteArrayInputStream(empty), file);
            }
            try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
                assertEquals(seedField, filter.spec().seed(), "the seed field as documented");
                assertTrue(key.addTo(filter), key + " is new to an empty filter");
            }
            List<Long> byCode = cellsSet(file, words);
            if (!documented.equals(byLibrary) || !documented.equals(byCode)) {
                differences.add(row + ": the library sets " + byLibrary + ", the code " + byCode);
            }
        }
        assertTrue(differences.isEmpty(), String.join("\n", differences));
    }

    private static byte[] guavaStream(int strategy, int k, int words) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(strategy);
        out.writeByte(k);
        out.writeInt(words);
        for (int i = 0; i < words; i++) {
            out.writeLong(0);
        }
        return bytes.toByteArray();
    }

    private static byte[] sparkStream(long seedField, int k, int words) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        int version = (int) (seedField >>> 32);
        out.writeInt(version);
        out.writeInt(k);
        if (version == 2) {
            out.writeInt((int) seedField);
        }
        out.writeInt(words);
        for (int i = 0; i < words; i++) {
            out.writeLong(0);
        }
        return bytes.toByteArray();
    }

    private static byte[] guavaPut(byte[] empty, VectorKey key) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayInputStream in = new ByteArrayInputStream(empty);
        if (key.value() instanceof Long value) {
            var filter = com.google.common.hash.BloomFilter.readFrom(in, Funnels.longFunnel());
            filter.put(value);
            filter.writeTo(out);
        } else if (key.value() instanceof String value) {
            var filter = com.google.common.hash.BloomFilter.readFrom(in, Funnels.stringFunnel(StandardCharsets.UTF_8));
            filter.put(value);
            filter.writeTo(out);
        } else {
            var filter = com.google.common.hash.BloomFilter.readFrom(in, Funnels.byteArrayFunnel());
            filter.put((byte[]) key.value());
            filter.writeTo(out);
        }
        return out.toByteArray();
    }

    private static byte[] sparkPut(byte[] empty, VectorKey key) throws IOException {
        var sketch = org.apache.spark.util.sketch.BloomFilter.readFrom(empty);
        if (key.value() instanceof Long value) {
            sketch.putLong(value);
        } else if (key.value() instanceof String value) {
            sketch.putString(value);
        } else {
            sketch.putBinary((byte[]) key.value());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        sketch.writeTo(out);
        return out.toByteArray();
    }

    /** The bits set in a library's stream, whose count of longs is at {@code countAt}. */
    private static List<Long> setBits(byte[] stream, int countAt) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(stream));
        in.skipBytes(countAt);
        int words = in.readInt();
        List<Long> set = new ArrayList<>();
        for (int w = 0; w < words; w++) {
            long word = in.readLong();
            for (int b = 0; b < 64; b++) {
                if ((word >>> b & 1) != 0) {
                    set.add(64L * w + b);
                }
            }
        }
        return set;
    }

    /** The cells set in a filter file, by FORMAT.md's packing of 1-bit cells. */
    private static List<Long> cellsSet(Path file, int words) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        List<Long> set = new ArrayList<>();
        for (long cell = 0; cell < 64L * words; cell++) {
            if ((bytes.getLong((int) FormatReference.wordOffset(cell, 1)) >>> FormatReference.shiftInWord(cell, 1) & 1) != 0) {
                set.add(cell);
            }
        }
        return set;
    }
}

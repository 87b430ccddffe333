package io.bloomstore.internal.format;

import io.bloomstore.CellsAccess;
import static io.bloomstore.internal.format.FormatDocument.code;
import static io.bloomstore.internal.format.FormatDocument.parseU64;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.NativeCells;
import io.bloomstore.BloomFilter;
import io.bloomstore.CellsCheck;
import io.bloomstore.CreateOption;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.KeyHasher;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.Pack;
import io.bloomstore.BloomSpec;
import io.bloomstore.HashAlgorithm;
import io.bloomstore.Layout;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holds docs/FORMAT.md to the code: every marked table and vector is recomputed with the real
 * implementation, through its public API and real filter files, and any difference fails with
 * the row, what the document says and what the code does.
 */
class FormatDocumentTest {
    private static final FormatDocument DOC = FormatDocument.load();
    /** Vector filters up to this size are checked cell by cell from the file's bytes. */
    private static final long FULLY_CHECKED_CELL_BYTES = 1 << 20;

    @TempDir
    Path dir;

    // ------------------------------------------------------------------ header and state tables

    @Test
    void headerTableMatchesTheDescriptor() {
        assertFieldTable("header-fields", 0, FilterFileDescriptor.HEADER_LENGTH);
    }

    @Test
    void stateTableMatchesTheDescriptor() {
        assertFieldTable("state-fields", FilterFileDescriptor.STATE_OFFSET,
                FilterFileDescriptor.STATE_OFFSET + FilterFileDescriptor.STATE_LENGTH);
    }

    /**
     * Each row's offset is the named {@link FilterFileDescriptor} constant, its size fits its type,
     * and the rows tile [start, end) with no gap or overlap.
     */
    private static void assertFieldTable(String marker, int start, int end) {
        int expectedOffset = start;
        for (Map<String, String> row : DOC.table(marker)) {
            String field = row.get("field");
            int offset = Integer.parseInt(row.get("offset"));
            int size = Integer.parseInt(row.get("size"));
            assertEquals(expectedOffset, offset, "FORMAT.md " + marker + ": " + field + " does not follow the field before it");
            String type = row.get("type");
            if (!type.equals("bytes")) {
                assertEquals(sizeOf(type), size, "FORMAT.md " + marker + ": " + field + " is a " + type);
            }
            String constant = code(row.get("constant"));
            if (!constant.equals("—")) {
                assertEquals(offset, staticValue(FilterFileDescriptor.class, constant),
                        "FORMAT.md " + marker + ": " + field + " offset vs FilterFileDescriptor." + constant);
            }
            expectedOffset = offset + size;
        }
        assertEquals(end, expectedOffset, "FORMAT.md " + marker + ": the fields must end at " + end);
    }

    private static int sizeOf(String type) {
        switch (type) {
            case "u8":
                return 1;
            case "u16":
                return 2;
            case "u32":
            case "i32":
                return 4;
            case "u64":
            case "i64":
            case "f64":
                return 8;
            default:
                throw new AssertionError("FORMAT.md: unknown type " + type);
        }
    }

    // ------------------------------------------------------------------ example header, CRC

    @Test
    void exampleHeaderIsTheBytesTheCodeWrites() throws Exception {
        Map<String, String> row = DOC.table("example-header-spec").get(0);
        BloomSpec spec = BloomSpec.builder()
                .cells(Long.parseLong(row.get("m")))
                .hashes(Integer.parseInt(row.get("k")))
                .counterBits(Integer.parseInt(row.get("w")))
                .layout(layoutNamed(row.get("layout")))
                .seed(parseU64(row.get("seed")))
                .expectedKeys(Long.parseLong(row.get("n")))
                .fpp(Double.parseDouble(row.get("p")))
                .build();
        assertEquals(BloomSpec.forExpected(spec.expectedKeys(), spec.targetFpp()), spec,
                "FORMAT.md says the example is forExpected(n, p)");
        FilterHeader header = FilterHeader.withIdentity(spec, Long.parseLong(row.get("created")),
                Boolean.parseBoolean(row.get("sparse")), parseU64(row.get("identity")));

        byte[] documented = hexDump(DOC.codeBlock("example-header"));
        assertEquals(hexDumpOf(header.encode()), hexDumpOf(documented), "FORMAT.md example header vs FilterHeader.encode()");

        FilterHeader decoded = FilterHeader.decode(Path.of("example"), documented, header.fileLength());
        assertEquals(spec, decoded.spec());
        assertEquals(header.createdMillis(), decoded.createdMillis());
        assertEquals(header.identity(), decoded.identity());
    }

    /** Seals a real file of the example's shape, of each version, and reads the checksum it stored. */
    @Test
    void checksumVectorsAreWhatSealStores() throws Exception {
        BloomSpec spec = BloomSpec.forExpected(1000, 0.01);
        List<String> differences = new ArrayList<>();
        for (Map<String, String> row : DOC.table("checksum-vectors")) {
            FilterHeader header = row.get("version").equals("3")
                    ? FilterHeader.withIdentity(spec, 0, false, parseU64(row.get("identity")))
                    : FilterHeader.unbound(spec, 0, false);
            assertEquals(Integer.parseInt(row.get("version")), header.version());
            Path file = dir.resolve("checksum-" + differences.size() + "-" + System.nanoTime() + ".bloom");
            FilterFiles.publishFilter(file, false, header, true, FilterFiles.emptyCells(header));
            try (BloomFilter filter = BloomFilter.open(file, io.bloomstore.OpenMode.READ_WRITE)) {
                if (!row.get("keys").equals("(none)")) {
                    filter.add(row.get("keys").replace("\"", ""));
                }
                filter.seal();
                long stored = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN)
                        .getLong(FilterFileDescriptor.CELLS_CHECKSUM_OFFSET);
                if (stored != parseU64(row.get("cells checksum"))) {
                    differences.add(String.format(Locale.ROOT, "%s: FORMAT.md %s, seal stored 0x%016x", row,
                            row.get("cells checksum"), stored));
                }
                assertTrue((filter.verify() == CellsCheck.INTACT), "a sealed file verifies");
            }
        }
        assertTrue(differences.isEmpty(), "checksum vectors differ:\n" + String.join("\n", differences));
    }

    @Test
    void crc32cCheckValueIsTheDocumentedOne() {
        CRC32C crc = new CRC32C();
        crc.update("123456789".getBytes(StandardCharsets.US_ASCII));
        assertTrue(DOC.text().contains(String.format(Locale.ROOT, "`0x%08X`", crc.getValue())),
                "FORMAT.md names the CRC32C check value " + Long.toHexString(crc.getValue()));
    }

    static byte[] hexDump(List<String> lines) {
        StringBuilder hex = new StringBuilder();
        for (String line : lines) {
            String[] parts = line.trim().split("\\s+");
            assertEquals(hex.length() / 2, Integer.parseInt(parts[0], 16), "FORMAT.md hex dump offset column: " + line);
            for (int i = 1; i < parts.length; i++) {
                hex.append(parts[i]);
            }
        }
        return HexFormat.of().parseHex(hex);
    }

    static String hexDumpOf(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < bytes.length; i += 16) {
            out.append(String.format(Locale.ROOT, "%04x ", i));
            for (int j = i; j < Math.min(bytes.length, i + 16); j++) {
                out.append(String.format(Locale.ROOT, " %02x", bytes[j]));
            }
            out.append('\n');
        }
        return out.toString();
    }

    // ------------------------------------------------------------------ constants, ids, problems

    @Test
    void constantsTableMatchesTheCode() {
        Map<String, Class<?>> owners = Map.of("FilterFileDescriptor", FilterFileDescriptor.class,
                "BloomSpec", BloomSpec.class, "ProbeMath", ProbeMath.class, "Pack", Pack.class);
        for (Map<String, String> row : DOC.table("constants")) {
            String[] owner = code(row.get("defined in Java by")).split("\\.");
            Class<?> type = owners.get(owner[0]);
            assertNotNull(type, "FORMAT.md constants: unknown class " + owner[0]);
            assertEquals(parseU64(row.get("value")), staticValue(type, owner[1]),
                    "FORMAT.md constants: " + row.get("name"));
        }
    }

    @Test
    void idsTableMatchesTheEnums() {
        List<Map<String, String>> rows = DOC.table("ids");
        for (Map<String, String> row : rows) {
            int id = Integer.parseInt(row.get("id"));
            String name = row.get("kind").equals("layout") ? FormatIds.layout(id).name().toLowerCase(Locale.ROOT) : FormatIds.hashAlgorithm(id).name();
            assertEquals(row.get("name"), name, "FORMAT.md ids: " + row.get("kind") + " " + id);
        }
        assertEquals(Layout.values().length + HashAlgorithm.values().length, rows.size(),
                "FORMAT.md ids lists every layout and hash algorithm");
    }

    @Test
    void everyProblemIsDocumentedAndEveryDocumentedProblemExists() {
        for (Map<String, String> row : DOC.table("validation")) {
            Problem.valueOf(code(row.get("problem"))); // throws for a name the code does not have
        }
        for (Problem problem : Problem.values()) {
            assertTrue(DOC.text().contains("`" + problem.name() + "`"), "FORMAT.md does not explain " + problem);
        }
    }

    // ------------------------------------------------------------------ sizing

    @Test
    void sizingTableIsWhatBloomSpecDerives() {
        List<String> differences = new ArrayList<>();
        for (Map<String, String> row : DOC.table("sizing")) {
            BloomSpec spec = BloomSpec.builder()
                    .expectedKeys(Long.parseLong(row.get("n")))
                    .fpp(Double.parseDouble(row.get("p")))
                    .layout(layoutNamed(row.get("layout")))
                    .counterBits(Integer.parseInt(row.get("w")))
                    .build();
            String documented = "m=" + row.get("m") + " k=" + row.get("k");
            String derived = "m=" + spec.cells() + " k=" + spec.hashes();
            if (!documented.equals(derived)) {
                differences.add(row + ": FORMAT.md " + documented + ", BloomSpec " + derived);
            }
        }
        assertTrue(differences.isEmpty(), "sizing vectors differ:\n" + String.join("\n", differences));
    }

    // ------------------------------------------------------------------ hash vectors

    @Test
    void hashVectorsAreXxh3OfTheCanonicalBytes() {
        List<String> differences = new ArrayList<>();
        for (Map<String, String> row : DOC.table("hash-vectors")) {
            VectorKey key = VectorKey.of(row.get("key type"), row.get("key"));
            long seed = parseU64(row.get("seed"));
            byte[] bytes = key.canonicalBytes();
            String documentedBytes = row.get("canonical bytes (hex)");
            String canonical = bytes.length == 0 ? "(none)" : HexFormat.of().formatHex(bytes);
            if (!documentedBytes.equals(canonical)) {
                differences.add(key + ": FORMAT.md bytes " + documentedBytes + ", by the rules " + canonical);
            }
            long documentedHash = parseU64(row.get("XXH3-64"));
            long library = LongHashFunction.xx3(seed).hashBytes(bytes);
            long hasher = key.hashWith(new KeyHasher(HashAlgorithm.XXH3_64, seed));
            long direct = new KeyHasher(HashAlgorithm.XXH3_64, seed).hash(directBuffer(bytes));
            if (documentedHash != library || documentedHash != hasher || documentedHash != direct) {
                differences.add(String.format(Locale.ROOT,
                        "%s seed %016x: FORMAT.md %016x, XXH3 of the bytes %016x, KeyHasher %016x, direct buffer %016x",
                        key, seed, documentedHash, library, hasher, direct));
            }
        }
        assertTrue(differences.isEmpty(), "hash vectors differ:\n" + String.join("\n", differences));
    }

    private static ByteBuffer directBuffer(byte[] bytes) {
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    // ------------------------------------------------------------------ cell packing

    @Test
    void cellPackingTableMatchesCellArray() {
        List<String> differences = new ArrayList<>();
        for (Map<String, String> row : DOC.table("cell-packing")) {
            int w = Integer.parseInt(row.get("w"));
            long cell = Long.parseLong(row.get("cell"));
            long word = Long.parseLong(row.get("word"));
            int shift = Integer.parseInt(row.get("shift"));
            String documented = String.format(Locale.ROOT, "word %d shift %d byte %s bit %s", word, shift,
                    row.get("file byte"), row.get("bit in byte"));
            String byRule = String.format(Locale.ROOT, "word %d shift %d byte %d bit %d",
                    (FormatReference.wordOffset(cell, w) - FilterFileDescriptor.CELLS_START) / 8,
                    FormatReference.shiftInWord(cell, w),
                    FormatReference.wordOffset(cell, w) + FormatReference.shiftInWord(cell, w) / 8,
                    FormatReference.shiftInWord(cell, w) % 8);
            String byCode = cellPositionInCellArray(cell, w);
            if (!documented.equals(byRule) || !documented.startsWith(byCode)) {
                differences.add("w=" + w + " cell " + cell + ": FORMAT.md " + documented + "; rule " + byRule
                        + "; CellArray " + byCode);
            }
        }
        assertTrue(differences.isEmpty(), "cell packing differs:\n" + String.join("\n", differences));
    }

    /** Increments the cell in an empty array and reports which word and bit the code changed. */
    private static String cellPositionInCellArray(long cell, int w) {
        try (NativeCells memory = NativeCells.allocate(cell + 1, w)) {
            CellArray cells = memory.cells();
            cells.incrementSaturating(cell);
            for (long word = 0; word < cells.words(); word++) {
                long value = cells.getWordVolatile(word);
                if (value != 0) {
                    return String.format(Locale.ROOT, "word %d shift %d", word, Long.numberOfTrailingZeros(value));
                }
            }
            return "no word changed";
        }
    }

    // ------------------------------------------------------------------ probe vectors

    /** One check per filter shape (seed, layout, w, m, k), covering every key of that shape. */
    @TestFactory
    Stream<DynamicTest> probeVectorsAreTheCellsTheCodeSets() {
        Map<String, List<Map<String, String>>> byShape = new LinkedHashMap<>();
        for (Map<String, String> row : DOC.table("probe-vectors")) {
            String shape = String.format(Locale.ROOT, "seed %s %s w=%s m=%s k=%s", row.get("seed"),
                    row.get("layout"), row.get("w"), row.get("m"), row.get("k"));
            byShape.computeIfAbsent(shape, s -> new ArrayList<>()).add(row);
        }
        assertTrue(byShape.size() >= 4, "FORMAT.md has probe vectors for several shapes");
        return byShape.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(),
                () -> checkProbeVectors(shapeOf(e.getValue().get(0)), e.getValue())));
    }

    private static BloomSpec shapeOf(Map<String, String> row) {
        Layout layout = layoutNamed(row.get("layout"));
        BloomSpec spec = BloomSpec.builder()
                .hashAlgorithm(layout == Layout.SBBF ? HashAlgorithm.XXH64 : HashAlgorithm.XXH3_64)
                .seed(parseU64(row.get("seed")))
                .layout(layout)
                .counterBits(Integer.parseInt(row.get("w")))
                .cells(Long.parseLong(row.get("m")))
                .hashes(Integer.parseInt(row.get("k")))
                .build();
        assertEquals(Long.parseLong(row.get("m")), spec.cells(), "FORMAT.md vector m must be a valid m for its layout");
        return spec;
    }

    private void checkProbeVectors(BloomSpec spec, List<Map<String, String>> rows) throws Exception {
        List<String> differences = new ArrayList<>();
        boolean small = spec.cellBytes() <= FULLY_CHECKED_CELL_BYTES;
        Path file = dir.resolve(String.format(Locale.ROOT, "vectors-%08x.bloom", spec.hashCode()));
        // A filter above 2^33 cells is created once, sparse, and each key's cells are cleared after
        // it is checked; scanning a gigabyte per key would cost seconds.
        BloomFilter shared = small ? null : BloomFilter.create(file, spec, CreateOption.SPARSE);
        try {
            for (Map<String, String> row : rows) {
                VectorKey key = VectorKey.of(row.get("key type"), row.get("key"));
                long[] documented = Arrays.stream(row.get("cell indices, probe 0 first").split(","))
                        .map(String::trim).mapToLong(Long::parseLong).toArray();
                long hash = key.hashWith(new KeyHasher(spec.hashAlgorithm(), spec.seed()));
                long[] byFormula = switch (spec.layout()) {
                    case BLOCKED -> FormatReference.blockedIndices(hash, spec.cells(), spec.hashes(), spec.counterBits());
                    case SECTORIZED -> FormatReference.sectorizedIndices(hash, spec.cells(), spec.hashes());
                    case STANDARD -> FormatReference.standardIndices(hash, spec.cells(), spec.hashes());
                    case SBBF -> FormatReference.sbbfIndices(hash, spec.cells());
                    case GUAVA, SPARK_SKETCH -> throw new AssertionError(
                            "the imported layouts' vectors have their own table, imported-probe-vectors (ImportedFormatTest)");
                };
                if (!Arrays.equals(documented, byFormula)) {
                    differences.add(key + ": FORMAT.md " + Arrays.toString(documented) + ", by its formulas "
                            + Arrays.toString(byFormula));
                }
                Map<Long, Long> expectedCells = cellValues(documented, spec.counterBits());
                Map<Long, Long> setCells = small ? cellsSetInOwnFile(spec, key, file) : cellsSetInShared(shared, key, expectedCells);
                if (!expectedCells.equals(setCells)) {
                    differences.add(key + ": FORMAT.md cells " + expectedCells + ", the code set " + setCells);
                }
            }
        } finally {
            if (shared != null) {
                shared.close();
            }
            Files.deleteIfExists(file);
        }
        assertTrue(differences.isEmpty(), spec + ":\n" + String.join("\n", differences));
    }

    /** Cell index to the value adding one key leaves there: how often it is probed, saturated. */
    private static Map<Long, Long> cellValues(long[] indices, int w) {
        long max = (1L << w) - 1;
        return Arrays.stream(indices).boxed()
                .collect(Collectors.groupingBy(i -> i, TreeMap::new, Collectors.counting()))
                .entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> Math.min(max, e.getValue()), (a, b) -> a, TreeMap::new));
    }

    /**
     * Adds the key to a new filter file, closes it, and decodes every cell from the file's bytes by
     * FORMAT.md's packing rule: checks the header page offset, little-endian words, the shifts, and
     * that no other cell (nor any padding bit) changed.
     */
    private static Map<Long, Long> cellsSetInOwnFile(BloomSpec spec, VectorKey key, Path file) throws Exception {
        try (BloomFilter filter = BloomFilter.create(file, spec, CreateOption.REPLACE_EXISTING)) {
            assertTrue(key.addTo(filter), key + " is new to an empty filter");
        }
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int w = spec.counterBits();
        long max = (1L << w) - 1;
        Map<Long, Long> set = new TreeMap<>();
        for (long cell = 0; cell < spec.cells(); cell++) {
            long word = bytes.getLong((int) FormatReference.wordOffset(cell, w));
            long value = (word >>> FormatReference.shiftInWord(cell, w)) & max;
            if (value != 0) {
                set.put(cell, value);
            }
        }
        long cellBits = spec.cells() * w;
        for (int offset = FilterFileDescriptor.CELLS_START + (int) (cellBits / 64) * 8; offset < bytes.capacity(); offset += 8) {
            long word = bytes.getLong(offset);
            long padding = offset == FilterFileDescriptor.CELLS_START + cellBits / 64 * 8 ? word >>> (cellBits % 64) : word;
            if (padding != 0) {
                set.put(-1L, padding); // shows up in the diff as a cell that cannot exist
            }
        }
        return set;
    }

    /**
     * Adds the key to the shared large filter and reads back the expected cells. The code makes
     * exactly k increments per add; when the expected cells hold k increments between them, none
     * went elsewhere. The cells are zeroed afterwards so the next key starts from an empty filter.
     */
    private static Map<Long, Long> cellsSetInShared(BloomFilter filter, VectorKey key, Map<Long, Long> expected) {
        assertTrue(key.addTo(filter), key + " is new to an empty filter");
        CellArray cells = CellsAccess.cells(filter);
        Map<Long, Long> set = new TreeMap<>();
        for (long cell : expected.keySet()) {
            long value = cells.getVolatile(cell);
            if (value != 0) {
                set.put(cell, value);
            }
        }
        long cellsPerWord = 64 / cells.counterBits();
        for (long cell : expected.keySet()) {
            cells.putWord(cell / cellsPerWord, 0);
        }
        return set;
    }

    // ------------------------------------------------------------------ helpers

    private static Layout layoutNamed(String name) {
        return Layout.valueOf(name.toUpperCase(Locale.ROOT));
    }

    private static long staticValue(Class<?> type, String name) {
        try {
            Field field = type.getField(name);
            return ((Number) field.get(null)).longValue();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("FORMAT.md names " + type.getSimpleName() + "." + name + ", which does not exist", e);
        }
    }
}

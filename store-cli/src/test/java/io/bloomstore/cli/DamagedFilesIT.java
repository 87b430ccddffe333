package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static io.bloomstore.internal.format.FilterFileDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.testing.ReadOnlyFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damaged and foreign files through the real jar: every verb that opens a filter file must refuse
 * them with exit status 2 (verify: 1, "damaged"), one line on stderr that names the file and the
 * problem, nothing on stdout, no stack trace, and leave the file and its directory exactly as they
 * were. The core half, {@code DamagedFileTest}, checks the exception for every case; this checks
 * that the CLI passes it on as the contract says.
 *
 * <p>A JVM per run costs ~0.2 s, so not every case meets every verb: the categories (one
 * representative each) run with every verb, and the sweeps over the header (a cut at every field
 * boundary, one flipped byte per field) run each case with one verb in rotation, plus verify.
 */
class DamagedFilesIT {
    /** The damaged file's name in every case; messages must name it. */
    private static final String DAMAGED = "damaged.bloom";
    private static final String GOOD = "good.bloom";
    private static final String KEYS = "keys.txt";

    /** A sealed filter built by the jar (keys a, b, c): the file every case spoils. */
    private static byte[] valid;

    @TempDir
    static Path template;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildTemplate() throws IOException {
        Files.writeString(template.resolve(KEYS), "a\nb\nc\n");
        run(template, "build", GOOD, "--from", KEYS, "--expected", "1000", "--fpp", "0.01").assertOk();
        valid = Files.readAllBytes(template.resolve(GOOD));
        // One page of header and state, one page of cells: the sweeps below cut and flip inside both.
        assertEquals(CELLS_START + 4096, valid.length);
    }

    /**
     * A verb that opens the damaged file, the arguments it gets (the damaged file where
     * {@code DAMAGED} stands), and its exit status on damage: the contract's 2, but verify's 1.
     */
    enum Verb {
        CONTAINS(2, "contains", DAMAGED, "a"),
        ADD(2, "add", DAMAGED, "new-key"),
        REMOVE(2, "remove", DAMAGED, "a"),
        COUNT(2, "count", DAMAGED, "a"),
        DEDUP(2, "dedup", DAMAGED, "--from", KEYS),
        INSPECT(2, "inspect", DAMAGED, "--json"),
        MERGE_FIRST(2, "merge", "out.bloom", DAMAGED, GOOD),
        MERGE_SECOND(2, "merge", "out.bloom", GOOD, DAMAGED, "--op", "and"),
        PACK(2, "pack", DAMAGED, "out.pack"),
        // to stdout: a refusal must come before the first byte of the pack
        PACK_TO_STDOUT(2, "pack", DAMAGED, "-"),
        ESTIMATE_FIRST(2, "estimate", DAMAGED, GOOD),
        ESTIMATE_SECOND(2, "estimate", GOOD, DAMAGED, "--json"),
        CHECKPOINT(2, "checkpoint", DAMAGED, "copy.bloom"),
        VERIFY(1, "verify", DAMAGED);

        final int exit;
        final String[] args;

        Verb(int exit, String... args) {
            this.exit = exit;
            this.args = args;
        }

        @Override
        public String toString() {
            return String.join(" ", args);
        }
    }

    /** A way to spoil the valid file (null: a directory instead), and words the error must hold. */
    record Damage(String name, UnaryOperator<byte[]> spoil, String... problemWords) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** One representative of each kind of damage named in the reliability brief. */
    static List<Damage> categories() {
        return List.of(
                new Damage("zero length", b -> new byte[0], "too short", "0 bytes"),
                new Damage("cut inside the header (24 bytes)", b -> Arrays.copyOf(b, CELL_COUNT_OFFSET), "too short"),
                new Damage("last cell byte cut off", b -> Arrays.copyOf(b, b.length - 1),
                        "8191 bytes", "describes 8192", "truncated"),
                new Damage("grown after creation (one byte appended)", b -> Arrays.copyOf(b, b.length + 1),
                        "8193 bytes", "describes 8192", "appended"),
                new Damage("wrong magic", b -> edit(b, h -> h.put(MAGIC_OFFSET + 7, (byte) 'X')), "not a bloomstore filter"),
                new Damage("future version 6, header CRC recomputed", b -> forge(b, h -> h.putShort(VERSION_OFFSET, (short) 6)),
                        "version 6 is not supported"),
                new Damage("version 2 (segmented) over a version 3 header, CRC recomputed",
                        b -> forge(b, h -> h.putShort(VERSION_OFFSET, (short) 2)), "header field kind is 0"),
                new Damage("flipped seed byte", b -> edit(b, h -> h.put(SEED_OFFSET + 2, (byte) (h.get(SEED_OFFSET + 2) ^ 0x10))),
                        "header is damaged"),
                new Damage("0 hashes, header CRC recomputed", b -> forge(b, h -> h.putInt(HASHES_OFFSET, 0)), "hashes"),
                new Damage("garbage", b -> garbage(b.length, 20261123L), "not a bloomstore filter"),
                new Damage("a text file", b -> "key-1\nkey-2\n".repeat(1000).getBytes(StandardCharsets.UTF_8),
                        "not a bloomstore filter"),
                new Damage("a directory", null, "directory"));
    }

    /** Every category with every verb. */
    static Stream<Arguments> categoryWithEveryVerb() {
        return categories().stream().flatMap(damage -> Arrays.stream(Verb.values()).map(verb -> Arguments.of(damage, verb)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("categoryWithEveryVerb")
    void categoryIsRefused(Damage damage, Verb verb) throws IOException {
        assertRefused(damage, verb);
    }

    /** The header's fields by name, in file order: where the sweeps cut and flip. */
    private static Map<String, Integer> headerFields() {
        Map<String, Integer> fields = new LinkedHashMap<>();
        fields.put("magic", MAGIC_OFFSET);
        fields.put("version", VERSION_OFFSET);
        fields.put("header length", HEADER_LENGTH_OFFSET);
        fields.put("layout", LAYOUT_OFFSET);
        fields.put("hash algorithm", HASH_ALGORITHM_OFFSET);
        fields.put("counter bits", COUNTER_BITS_OFFSET);
        fields.put("reserved byte", RESERVED_BYTE_OFFSET);
        fields.put("hashes", HASHES_OFFSET);
        fields.put("flags", FLAGS_OFFSET);
        fields.put("cells", CELL_COUNT_OFFSET);
        fields.put("seed", SEED_OFFSET);
        fields.put("expected keys", EXPECTED_KEYS_OFFSET);
        fields.put("target fpp", TARGET_FPP_OFFSET);
        fields.put("created", CREATED_MILLIS_OFFSET);
        fields.put("cells offset", CELLS_START_OFFSET);
        fields.put("cells length", CELLS_LENGTH_OFFSET);
        fields.put("reserved", RESERVED_OFFSET);
        fields.put("header CRC", HEADER_CRC_OFFSET);
        return fields;
    }

    /**
     * A cut at every header field boundary (and at the ends of the header, the state area and the
     * header page), and one flipped byte in every header field: the field's last byte, which in
     * little-endian is the most significant, so the value read would be far off if the checksum
     * did not stop it. The masks rotate so a single bit, the top bit and a whole byte all occur.
     */
    static Stream<Arguments> headerSweep() {
        List<Damage> cases = new ArrayList<>();
        List<Integer> cuts = new ArrayList<>(List.of(1));
        cuts.addAll(headerFields().values());
        cuts.addAll(List.of(HEADER_LENGTH - 1, HEADER_LENGTH, STATE_OFFSET + STATE_LENGTH, CELLS_START));
        for (int length : cuts.stream().distinct().toList()) {
            // Below a whole header the file is too short to read; from there on its length disagrees with the header.
            String[] words = length < HEADER_LENGTH
                    ? new String[] {"too short", length + " bytes"}
                    : new String[] {length + " bytes", "truncated"};
            cases.add(new Damage("cut to " + length + " bytes", b -> Arrays.copyOf(b, length), words));
        }
        int[] masks = {0x01, 0x80, 0xFF};
        List<Integer> starts = new ArrayList<>(headerFields().values());
        List<String> names = new ArrayList<>(headerFields().keySet());
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1) : HEADER_LENGTH;
            int offset = end - 1;
            int mask = masks[i % masks.length];
            // The magic and the version are checked first, by name; every other byte fails the checksum.
            String[] words = offset < VERSION_OFFSET ? new String[] {"not a bloomstore filter"}
                    : offset < HEADER_LENGTH_OFFSET ? new String[] {"version", "not supported"}
                    : new String[] {"header is damaged"};
            cases.add(new Damage(names.get(i) + ": byte " + offset + " ^ 0x" + Integer.toHexString(mask), b -> {
                byte[] copy = b.clone();
                copy[offset] ^= (byte) mask;
                return copy;
            }, words));
        }
        Verb[] refusing = Arrays.stream(Verb.values()).filter(v -> v != Verb.VERIFY).toArray(Verb[]::new);
        List<Arguments> runs = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            runs.add(Arguments.of(cases.get(i), refusing[i % refusing.length]));
            runs.add(Arguments.of(cases.get(i), Verb.VERIFY));
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("headerSweep")
    void headerDamageIsRefused(Damage damage, Verb verb) throws IOException {
        assertRefused(damage, verb);
    }

    /**
     * A read-only file opened for writing (add, remove, dedup): exit 2, one line, file unchanged;
     * reading it still works. The tests run as root, which ignores permission bits, so there the
     * file is also made immutable (chattr +i), which binds root too; where neither works the test
     * is skipped, saying why.
     */
    @Test
    void readOnlyFileOpenedForWritingIsRefused() throws Exception {
        Files.writeString(dir.resolve(KEYS), "a\nb\nc\n");
        Path file = Files.write(dir.resolve(DAMAGED), valid);
        ReadOnlyFile readOnly = ReadOnlyFile.make(file);
        try {
            Assumptions.assumeTrue(readOnly.effective(), "cannot make a file read-only here: running as "
                    + System.getProperty("user.name") + ", which ignores permission bits, and chattr +i failed");
            List<String> before = filesIn(dir);
            for (Verb verb : List.of(Verb.ADD, Verb.REMOVE, Verb.DEDUP)) {
                JarProcess.Result result = run(dir, verb.args).assertError(2);
                assertOneLineNaming(result.err(), "not writable");
                assertArrayEquals(valid, Files.readAllBytes(file), verb + " changed the read-only file");
                assertEquals(before, filesIn(dir), verb + " left something behind");
            }
            assertEquals("a\tpresent\n", run(dir, "contains", DAMAGED, "a").assertOk().stdout(), "reading still works");
            assertTrue(run(dir, "verify", DAMAGED).assertOk().stdout().startsWith(DAMAGED + ": ok"), "verify reads it");
        } finally {
            readOnly.undo();
        }
    }

    private void assertRefused(Damage damage, Verb verb) throws IOException {
        Files.write(dir.resolve(GOOD), valid);
        Files.writeString(dir.resolve(KEYS), "a\nb\nc\n");
        Path damaged = dir.resolve(DAMAGED);
        byte[] content = null;
        if (damage.spoil() == null) {
            Files.createDirectory(damaged);
        } else {
            content = damage.spoil().apply(valid);
            Files.write(damaged, content);
        }
        List<String> before = filesIn(dir);

        // verify: 1 for a damaged file, 2 (as its --help says) for one that cannot be read as a file at all
        int exit = verb == Verb.VERIFY && damage.spoil() == null ? ExitCode.ERROR : verb.exit;
        JarProcess.Result result = run(dir, verb.args).assertError(exit);
        assertOneLineNaming(result.err(), damage.problemWords());

        if (content != null) {
            assertArrayEquals(content, Files.readAllBytes(damaged), "the damaged file is byte for byte as it was");
        } else {
            assertEquals(List.of(), filesIn(damaged), "nothing was written into the directory");
        }
        assertArrayEquals(valid, Files.readAllBytes(dir.resolve(GOOD)), "the intact input is unchanged");
        assertEquals(before, filesIn(dir), "no output file, no temporary left behind");
    }

    /** "bloomstore: damaged.bloom: ..." naming the problem, and nothing of Java's own. */
    private static void assertOneLineNaming(String err, String... problemWords) {
        assertTrue(err.startsWith("bloomstore: " + DAMAGED + ": "), "names the file first: " + err);
        for (String word : problemWords) {
            assertTrue(err.contains(word), "says \"" + word + "\": " + err);
        }
        assertFalse(err.contains("Exception") || err.contains("\tat ") || err.contains("internal error"),
                "no stack trace, no exception name: " + err);
    }

    /** A copy edited without fixing the CRC: damage, as a disk or a stray write would do it. */
    private static byte[] edit(byte[] file, Consumer<ByteBuffer> change) {
        byte[] copy = file.clone();
        change.accept(ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN));
        return copy;
    }

    /** A copy edited and re-signed with a valid CRC32C: a consistent header of a writer this version does not know. */
    private static byte[] forge(byte[] file, Consumer<ByteBuffer> change) {
        byte[] copy = edit(file, change);
        CRC32C crc = new CRC32C();
        crc.update(copy, 0, HEADER_CRC_OFFSET);
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(HEADER_CRC_OFFSET, (int) crc.getValue());
        return copy;
    }

    private static byte[] garbage(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}

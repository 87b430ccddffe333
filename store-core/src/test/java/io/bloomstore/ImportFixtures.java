package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.StreamCorruptedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * What the tests of the Guava and Spark-sketch imports share: the check that an import answers as
 * the library's filter, the bit array a library's stream carries, and the check that an import
 * refuses a damaged stream cleanly.
 */
final class ImportFixtures {
    private ImportFixtures() {
    }

    /** An import of a library's stream into a new filter file. */
    @FunctionalInterface
    interface Import {
        void into(InputStream stream, Path file) throws IOException;
    }

    /** One of bloomstore's queries of a key of type T. */
    @FunctionalInterface
    interface Query<T> {
        boolean mightContain(BloomFilter filter, T key);
    }

    /** A damaged or hostile stream, by name, and what the import's refusal must say. */
    record Refusal(String name, byte[] stream, String says) {
    }

    /** The rest of a stream read up to its bit array: the count of longs, then the longs, big-endian as both libraries write them. */
    static long[] words(DataInputStream in) throws IOException {
        long[] words = new long[in.readInt()];
        for (int i = 0; i < words.length; i++) {
            words[i] = in.readLong();
        }
        return words;
    }

    /**
     * Asserts that {@code imported} finds keys 0 to {@code keys - 1} (all put into the library's
     * filter) and answers each of the next {@code absent} keys as the library's filter does
     * ({@code theirs}), some of them as false positives, so that the comparison compared something.
     */
    static <T> void assertAnswersAsTheLibrary(String library, BloomFilter imported, LongFunction<T> key, Query<T> query,
            Predicate<T> theirs, long keys, long absent) {
        for (long i = 0; i < keys; i++) {
            assertTrue(query.mightContain(imported, key.apply(i)), "key " + i + " was put");
        }
        int disagreements = 0;
        int present = 0;
        for (long i = keys; i < keys + absent; i++) {
            T other = key.apply(i);
            boolean ours = query.mightContain(imported, other);
            present += ours ? 1 : 0;
            disagreements += ours == theirs.test(other) ? 0 : 1;
        }
        assertEquals(0, disagreements, "answers that differ from " + library + "'s on " + absent + " absent keys");
        assertTrue(present > 0, "some absent keys are false positives, as " + library + "'s are: the check compared something");
    }

    /**
     * Asserts that {@code importer} refuses each stream with one line that says what the refusal
     * names, as the stream's fault (not the disk's) by its type, creating no file, and that nothing
     * (no temporary file either) is left in {@code dir}.
     */
    static void assertEachCreatesNothing(Path dir, Import importer, List<Refusal> refusals) throws IOException {
        for (Refusal refused : refusals) {
            Path out = dir.resolve(refused.name().replace(' ', '-') + ".bloom");
            IOException e = assertThrows(IOException.class,
                    () -> importer.into(new ByteArrayInputStream(refused.stream()), out), refused.name());
            assertTrue(e.getMessage().contains(refused.says()), refused.name() + ": " + e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
            assertFalse(e.getMessage().contains("disk"), "a fault of the stream, not of the disk: " + e.getMessage());
            assertTrue(e instanceof EOFException || e instanceof StreamCorruptedException, "the stream's fault, by its type: " + e);
            assertFalse(Files.exists(out), refused.name() + " created " + out);
        }
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "no temporary file is left behind either");
        }
    }
}

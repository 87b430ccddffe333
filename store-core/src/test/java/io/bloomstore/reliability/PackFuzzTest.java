package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.bloomstore.FilterFileInfo;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.Pack;
import io.bloomstore.tools.FileForensics;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzzes the pack reader: whatever the stream, {@link Pack#unpack} either restores a filter that
 * opens clean or throws {@link InvalidFilterFileException} and leaves nothing behind — no other
 * exception, no temporary file, no half-written filter.
 *
 * <p>The first input byte chooses what the rest is: bit 0 clear, a raw pack stream (the fuzzer
 * attacks the LZ4 frame parser and its checksums); bit 0 set, the pack's content, which the test
 * wraps in a well-formed LZ4 frame, so the fuzzer reaches the preamble, the packed header and the
 * length checks behind the checksums.
 *
 * <p>In a normal {@code mvn test} this replays the committed corpus
 * ({@code src/test/resources/io/bloomstore/reliability/PackFuzzTestInputs/}); with
 * {@code JAZZER_FUZZ=1} it fuzzes (see docs/RELIABILITY.md).
 */
class PackFuzzTest {
    static final int FRAMED = 1;
    private static Path dir;

    @BeforeAll
    static void makeTargetDirectoryAndConfigureJazzer() throws IOException {
        JazzerSettings.noHooksWhenReplaying();
        dir = Files.createTempDirectory("pack-fuzz");
    }

    @AfterAll
    static void removeTargetDirectory() throws IOException {
        Files.delete(dir);
    }

    @FuzzTest(maxDuration = "5m")
    void unpackRestoresAFilterOrRefusesAndLeavesNothing(byte[] data) throws IOException {
        byte[] stream = streamOf(data);
        Path target = dir.resolve("restored.bloom");
        try {
            FilterFileInfo header = Pack.unpack(new ByteArrayInputStream(stream), "fuzzed.pack", target)
                    .info().orElseThrow();
            assertEquals(header.fileLength(), Files.size(target), "the restored file has the packed length");
            assertEquals(header.spec(), FileForensics.readInfo(target).spec(), "the restored file opens clean");
            Files.delete(target);
        } catch (InvalidFilterFileException e) {
            assertNotNull(e.problem());
        }
        assertEquals(List.of(), Directories.names(dir), "nothing is left behind");
    }

    /** The pack stream a fuzz input stands for (see the class comment). */
    static byte[] streamOf(byte[] data) {
        if (data.length == 0) {
            return data;
        }
        byte[] rest = Arrays.copyOfRange(data, 1, data.length);
        return (data[0] & FRAMED) != 0 ? PackFrames.frame(rest) : rest;
    }

    /** The fuzz input standing for {@code rest} read as raw or framed; for the seed corpus. */
    static byte[] input(boolean framed, byte[] rest) {
        byte[] data = new byte[rest.length + 1];
        data[0] = (byte) (framed ? FRAMED : 0);
        System.arraycopy(rest, 0, data, 1, rest.length);
        return data;
    }
}

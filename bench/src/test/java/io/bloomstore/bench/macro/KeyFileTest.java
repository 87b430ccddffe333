package io.bloomstore.bench.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.bench.Keys;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyFileTest {
    @TempDir
    Path dir;

    @Test
    void linesFollowTheCliRules() throws IOException {
        // CRLF, empty lines, a line longer than the buffer, and a last line without a newline.
        String text = "alpha\r\n\nbeta\n\r\n" + "x".repeat(40) + "\ngamma";
        assertEquals(List.of("alpha", "beta", "x".repeat(40), "gamma"), read(text, 0, 8));
    }

    @Test
    void rangesFromSplitCoverEveryLineOnce() throws IOException {
        Path file = dir.resolve("keys.txt");
        KeyFile.ensure(file, 1000);
        assertEquals(1000 * KeyFile.LINE_BYTES, Files.size(file));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long[] cuts = KeyFile.split(channel, 3);
            List<String> lines = new ArrayList<>();
            for (int part = 0; part < 3; part++) {
                KeyFile.forEachLine(channel, cuts[part], cuts[part + 1],
                        (bytes, offset, length) -> lines.add(new String(bytes, offset, length, StandardCharsets.US_ASCII)), 64);
            }
            assertEquals(1000, lines.size());
            byte[] expected = new byte[16];
            for (int i = 0; i < 1000; i++) {
                Keys.hexLine(i, expected, 0);
                assertEquals(new String(expected, StandardCharsets.US_ASCII), lines.get(i));
            }
        }
    }

    private List<String> read(String text, long from, int bufferBytes) throws IOException {
        Path file = dir.resolve("lines.txt");
        Files.writeString(file, text);
        List<String> lines = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            KeyFile.forEachLine(channel, from, channel.size(),
                    (bytes, offset, length) -> lines.add(new String(bytes, offset, length, StandardCharsets.UTF_8)), bufferBytes);
        }
        return lines;
    }
}

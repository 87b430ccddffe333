package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A connection finds the filter of the key it named last without looking the key up again
 * (Keyspace.Recent), and a filter in use is closed only once no command runs on it (Handle's
 * counts): what happens to the key meanwhile is still seen at once, and no command runs on a
 * closed filter.
 */
class RecentKeyTest {
    @TempDir
    Path dir;

    @Test
    void aKeyDeletedOrReplacedIsSeenByTheConnectionThatNamedItLast() throws IOException, InterruptedException {
        try (ServedFolder server = ServedFolder.start(dir); Resp one = new Resp(server.port); Resp other = new Resp(server.port)) {
            assertEquals(":1", one.send(Resp.command("BF.ADD", "k", "a")).line());
            assertEquals(":1", one.send(Resp.command("bf.exists", "k", "a")).line(), "a command's name in any case");
            assertEquals(":1", other.send(Resp.command("DEL", "k")).line());
            assertEquals(":0", one.send(Resp.command("Bf.Exists", "k", "a")).line(), "the deleted filter is not asked");
            assertEquals(":1", one.send(Resp.command("BF.ADD", "k", "b")).line(), "a new filter, made by the add");
            assertEquals(":0", one.send(Resp.command("BF.EXISTS", "k", "a")).line());

            Path staged = dir.resolve("staged.tmp"); // no .bloom: not a key until it is moved
            try (BloomFilter replacement = BloomFilter.create(staged, BloomSpec.forExpected(1000, 0.01))) {
                replacement.add("c".getBytes(StandardCharsets.UTF_8));
            }
            Files.move(staged, dir.resolve("k.bloom"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            long deadline = System.nanoTime() + ServedFolder.WAIT.toNanos();
            while (!":1".equals(one.send(Resp.command("BF.EXISTS", "k", "c")).line())) {
                assertTrue(System.nanoTime() < deadline, "the file put in the key's place is served (checked every second)");
                Thread.sleep(100);
            }
            assertEquals(":0", one.send(Resp.command("BF.EXISTS", "k", "b")).line(), "the replaced filter is not asked");
        }
    }

    @Test
    void deletesBetweenPipelinedAddsNeverReachAClosedFilter() throws IOException {
        int adds = 3000;
        int deletes = 100;
        try (ServedFolder server = ServedFolder.start(dir); Resp adder = new Resp(server.port); Resp deleter = new Resp(server.port)) {
            ByteArrayOutputStream addAll = new ByteArrayOutputStream();
            for (int i = 0; i < adds; i++) {
                addAll.writeBytes(Resp.command("BF.ADD", "k", "item" + i));
            }
            ByteArrayOutputStream deleteAll = new ByteArrayOutputStream();
            for (int i = 0; i < deletes; i++) {
                deleteAll.writeBytes(Resp.command("DEL", "k"));
            }
            adder.send(addAll.toByteArray());
            deleter.send(deleteAll.toByteArray());
            for (int i = 0; i < adds; i++) {
                String reply = adder.line();
                assertTrue(":1".equals(reply) || ":0".equals(reply), "add " + i + " answered " + reply);
            }
            for (int i = 0; i < deletes; i++) {
                String reply = deleter.line();
                assertTrue(":1".equals(reply) || ":0".equals(reply), "DEL " + i + " answered " + reply);
            }
            assertEquals(":1", adder.send(Resp.command("BF.ADD", "k", "last")).line());
            assertEquals(":1", deleter.send(Resp.command("BF.EXISTS", "k", "last")).line());
            server.stop();
        }
    }
}

package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Acknowledged adds survive a kill -9 of the server (the mapping holds them); SIGTERM closes every file cleanly. */
class DurabilityTest {
    private static final int KEYS = 5_000;

    @TempDir
    Path dir;

    private static void addAll(ServedFolder server, String key) throws IOException {
        try (Resp resp = new Resp(server.port)) {
            StringBuilder pipeline = new StringBuilder();
            for (int i = 0; i < KEYS; i++) {
                pipeline.append(new String(Resp.command("BF.ADD", key, "item-" + i), java.nio.charset.StandardCharsets.UTF_8));
            }
            resp.send(pipeline.toString());
            for (int i = 0; i < KEYS; i++) {
                String reply = resp.line();
                assertTrue(reply.equals(":1") || reply.equals(":0"), "acknowledged: " + reply);
            }
        }
    }

    private void assertAllThere(String key) throws IOException {
        try (MembershipFilter filter = MembershipFilter.open(dir.resolve(key + ".bloom"), OpenMode.READ_ONLY,
                Clock.systemUTC())) {
            for (int i = 0; i < KEYS; i++) {
                assertTrue(filter.mightContain("item-" + i), "acknowledged add item-" + i + " survived");
            }
        }
    }

    @Test
    void aKill9LosesNoAcknowledgedAddWhateverTheSyncPolicy() throws IOException {
        for (SyncPolicy sync : SyncPolicy.values()) {
            try (ServedFolder server = ServedFolder.start(dir, sync, null, 30, 100)) {
                addAll(server, "crash-" + sync);
                server.process.killHard(ServedFolder.WAIT);
            }
            assertAllThere("crash-" + sync);
        }
    }

    @Test
    void sigtermClosesEveryFileCleanly() throws IOException {
        try (ServedFolder server = ServedFolder.start(dir)) {
            try (Resp resp = new Resp(server.port)) {
                assertEquals("+OK", resp.send(Resp.command("BF.RESERVE", "fixed", "0.01", "100000", "NONSCALING")).line());
            }
            addAll(server, "fixed");
            try (BloomFilter open = BloomFilter.open(dir.resolve("fixed.bloom"), OpenMode.READ_ONLY)) {
                assertEquals(1, open.shape().openWriters(), "the server holds the file open for writing");
            }
            server.process.terminate(ServedFolder.WAIT);
        }
        try (BloomFilter closed = BloomFilter.open(dir.resolve("fixed.bloom"), OpenMode.READ_ONLY)) {
            assertEquals(0, closed.shape().openWriters(), "SIGTERM closed the file: no writer left counted");
            assertEquals(KEYS, closed.approximateKeys(), 50, "the insertion count was published at close");
        }
        assertAllThere("fixed");
    }
}

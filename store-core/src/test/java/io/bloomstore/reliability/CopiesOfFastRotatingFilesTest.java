package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.CreateOption;
import io.bloomstore.Checkpoint;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.testing.ChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints and packs of a windowed file whose epochs last 10 or 50 ms, while a separate JVM adds
 * to it on the system clock, so that it rotates several times during each copy: every copy
 * succeeds, at the first pass, verifies, and holds every key acknowledged before it began whose
 * epoch was still in the window when it ended (docs/RELIABILITY.md, "Checkpoints").
 */
class CopiesOfFastRotatingFilesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int EPOCHS = 64;
    private static final int ROUNDS = 3;

    @TempDir
    Path dir;

    /** An acknowledged key and the time read before its add began. */
    private record Acknowledged(long key, long millis) {
    }

    @ParameterizedTest
    @ValueSource(longs = {10, 50})
    void copiesOfAFileRotatingEveryFewMillisecondsSucceedAndHoldTheWindow(long epochMillis) throws IOException {
        Path live = dir.resolve("live.bloom");
        Path copy = dir.resolve("copy.bloom");
        // 65 slots of a quarter MiB each: a pass over them outlasts an epoch of 10 ms on most machines
        WindowSpec spec = WindowSpec.of(10_000_000, 0.01, Duration.ofMillis(EPOCHS * epochMillis)).withEpochs(EPOCHS);
        WindowedBloomFilter.create(live, spec, Clock.systemUTC()).close();
        List<Acknowledged> acknowledged = new ArrayList<>();
        long checked = 0;
        try (ChildJvm adder = ChildJvm.start(SystemClockWindowedAdder.class, live.toString())) {
            adder.expectLine("open", TIMEOUT);
            for (int round = 0; round < ROUNDS; round++) {
                readUntilNow(adder, acknowledged);
                Checkpoint.Result result = Checkpoint.write(live, copy);
                long ended = System.currentTimeMillis();
                assertEquals(1, result.passes(), "a rotation does not make a checkpoint read the file again");
                checked += assertWindowHeld(copy, acknowledged, ended, epochMillis);

                readUntilNow(adder, acknowledged);
                Path pack = dir.resolve("live.pack");
                Path restored = dir.resolve("restored.bloom");
                Pack.packTo(live, pack, CreateOption.REPLACE_EXISTING);
                ended = System.currentTimeMillis();
                try (InputStream in = Files.newInputStream(pack)) {
                    Pack.unpack(in, pack.toString(), restored, CreateOption.REPLACE_EXISTING);
                }
                checked += assertWindowHeld(restored, acknowledged, ended, epochMillis);
            }
            adder.killHard(TIMEOUT);
        }
        assertTrue(checked > 0 || epochMillis == 10, "with 50 ms epochs the window is 3.2 s: some keys were checked");
    }

    /** Reads the adder's acknowledgements up to one of a key whose add began now or later: the newest keys too. */
    private static void readUntilNow(ChildJvm adder, List<Acknowledged> into) {
        long now = System.currentTimeMillis();
        for (long millis = Long.MIN_VALUE; millis < now; ) {
            String[] words = adder.readLine(TIMEOUT).split(" ");
            millis = Long.parseLong(words[1]);
            into.add(new Acknowledged(Long.parseLong(words[0]), millis));
        }
    }

    /**
     * Verifies {@code file} and checks that every acknowledged key whose add began in an epoch still
     * in the window at {@code ended} (when the copy returned) is in it, asked at that time; returns
     * how many keys were checked.
     */
    private static long assertWindowHeld(Path file, List<Acknowledged> acknowledged, long ended, long epochMillis)
            throws IOException {
        long oldestLive = ended / epochMillis - EPOCHS;
        long checked = 0;
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY,
                Clock.fixed(Instant.ofEpochMilli(ended), ZoneOffset.UTC))) {
            filter.verify();
            for (Acknowledged key : acknowledged) {
                if (key.millis() / epochMillis >= oldestLive) {
                    checked++;
                    if (!filter.mightContain(key.key())) {
                        fail(file.getFileName() + ": key " + key.key() + ", added in epoch " + key.millis() / epochMillis
                                + " or later, is missing; the window starts at epoch " + oldestLive);
                    }
                }
            }
        }
        return checked;
    }
}

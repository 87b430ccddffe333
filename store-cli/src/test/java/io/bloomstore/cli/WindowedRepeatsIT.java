package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The README's promise for a windowed dedup: "every repeat refreshes it, so a line that keeps
 * coming is never printed again", through the jar, on a 4-second window (2 epochs of 2 s).
 *
 * <p>A line that comes every 200 ms is fed for window + epoch + 1.5 s after it was first printed:
 * a dedup that counted only the first arrival prints it again within window + epoch. The count of
 * printings is the assertion; the clock enters only to tell whether the run could show anything:
 * each repeat is sent with a fresh "tick" line right behind it, which dedup prints as soon as it
 * has read both, so a tick received less than a window after the previous repeat was sent proves
 * that dedup saw the two repeats less than a window apart. A run on a host so loaded that some
 * pair was a window apart is skipped, not failed: there the line was rightly forgotten.
 */
class WindowedRepeatsIT {
    private static final long WINDOW_MILLIS = 4_000;
    private static final long EPOCH_MILLIS = 2_000;
    private static final long PACE_MILLIS = 200;
    private static final long BOUND_MILLIS = 90_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"at-least-once", "at-most-once"})
    void aLineThatKeepsComingIsPrintedOnce(String delivery) throws Exception {
        Process dedup = JarProcess.start(dir, "dedup", "recent.bloom", "--expected", "1000", "--fpp", "1e-9",
                "--window", "4s", "--epochs", "2", "--delivery", delivery);
        Map<String, Long> received = new ConcurrentHashMap<>();
        List<String> printed = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(dedup.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    received.putIfAbsent(line, System.nanoTime());
                    printed.add(line);
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        CompletableFuture<byte[]> errors = JarProcess.readAll(dedup.getErrorStream());
        List<Long> sent = new ArrayList<>(); // when repeat i (and tick i behind it) was sent
        long start = System.nanoTime();
        try (OutputStream in = dedup.getOutputStream()) {
            for (int i = 0; ; i++) {
                Long first = received.get("alert");
                long now = System.nanoTime();
                if (first != null && now - first > TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS + EPOCH_MILLIS + 1_500)) {
                    break;
                }
                assertTrue(now - start < TimeUnit.MILLISECONDS.toNanos(BOUND_MILLIS), "dedup printed nothing in "
                        + BOUND_MILLIS / 1000 + " s; stderr: " + new String(errors.getNow(new byte[0]), StandardCharsets.UTF_8));
                sent.add(now);
                in.write(("alert\ntick-" + i + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                Thread.sleep(PACE_MILLIS);
            }
        }
        assertTrue(dedup.waitFor(60, TimeUnit.SECONDS), "dedup ends with its input");
        reader.get(60, TimeUnit.SECONDS);
        assertEquals(0, dedup.exitValue(), new String(errors.get(), StandardCharsets.UTF_8));

        long printings = printed.stream().filter("alert"::equals).count();
        if (printings > 1) {
            // Dedup forgot the line: rightly only if it saw two repeats a window apart.
            long widest = 0;
            for (int i = 1; i < sent.size(); i++) {
                long next = Long.MAX_VALUE;
                for (int j = i; j < sent.size() && next == Long.MAX_VALUE; j++) {
                    next = received.getOrDefault("tick-" + j, Long.MAX_VALUE); // a false-positive tick: the next one bounds it
                }
                widest = Math.max(widest, next == Long.MAX_VALUE ? Long.MAX_VALUE : next - sent.get(i - 1));
            }
            assumeTrue(widest < TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS), "too loaded a host: two repeats may have "
                    + "reached dedup a window apart (" + widest / 1_000_000 + " ms), so it rightly forgot the line");
        }
        assertEquals(1, printings, delivery + ": a line sent every " + PACE_MILLIS + " ms for "
                + (WINDOW_MILLIS + EPOCH_MILLIS + 1_500) + " ms after it was first printed, into a " + WINDOW_MILLIS
                + " ms window, printed " + printings + " times");
        assertTrue(sent.size() > (WINDOW_MILLIS + EPOCH_MILLIS) / PACE_MILLIS, sent.size() + " repeats sent");
    }
}

package io.bloomstore.reliability;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child of {@link ConcurrencySoakTest}: one process of the soak. Opens the counting filter, prints
 * {@code ready}, waits for {@code go} on stdin (so every process starts together), then runs its
 * threads for the given time, each following {@link SoakPlan} on its own keys. At the end each
 * thread prints {@code thread T generation G next N adds A removes R queries Q violations V} and
 * the process prints {@code done}, closes the filter and exits 0.
 *
 * <p>Arguments: {@code FILE PROCESS THREADS MILLIS}.
 */
public final class SoakWorker {
    private SoakWorker() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int process = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        long millis = Long.parseLong(args[3]);
        PrintWriter out = new PrintWriter(System.out, false);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            out.println("ready");
            Children.flushOrExit(out);
            if (!"go".equals(in.readLine())) {
                return;
            }
            long deadline = System.nanoTime() + millis * 1_000_000;
            List<SoakPlan.Runner> runners = new ArrayList<>();
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                SoakPlan.Runner runner = new SoakPlan.Runner(filter, process, t, deadline);
                runners.add(runner);
                Thread thread = new Thread(runner, "soak-" + process + "-" + t);
                running.add(thread);
                thread.start();
            }
            for (Thread thread : running) {
                thread.join();
            }
            for (SoakPlan.Runner runner : runners) {
                out.println(runner.report());
            }
            out.println("done");
            Children.flushOrExit(out);
        }
    }
}

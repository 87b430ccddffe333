package io.bloomstore.cli;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A child process that opens a sealed filter for writing when told to, and adds keys: the writer
 * that arrives while {@code verify} or {@code pack} reads the cells ({@link SealWithdrawnWhileReadIT}).
 * Arguments: the filter file and how many keys to add. It prints "ready" once it has mapped a
 * filter (so its open on "go" costs a millisecond, not the memory layer's start), "opened" as soon
 * as its read-write open returned (the seal is withdrawn by then), and "added" at the end.
 */
public final class SealWithdrawingWriter {
    private SealWithdrawingWriter() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        int keys = Integer.parseInt(args[1]);
        try (BloomFilter warm = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            warm.mightContain("warm-up");
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("ready");
        System.out.flush();
        if (!"go".equals(in.readLine())) {
            return;
        }
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            System.out.println("opened");
            System.out.flush();
            for (int i = 0; i < keys; i++) {
                filter.add("writer-" + i);
            }
        }
        System.out.println("added");
        System.out.flush();
    }
}

package io.bloomstore.reliability;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child of {@link CrashRecoveryTest} and {@link DiskFullTest}: creates one large filter (cells
 * allocated by writing zeros, then forced to disk), so the parent can kill it in the middle of the
 * create, or limit the size of the files it may write first.
 *
 * <p>Arguments: {@code FILE CELLS [await-go]}. With {@code await-go} it prints {@code ready} and
 * waits for {@code go} on stdin before it starts. It prints {@code creating} just before the create,
 * then {@code created}, or {@code refused MESSAGE} if the create failed with an IOException.
 */
public final class FilterCreator {
    private FilterCreator() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long cells = Long.parseLong(args[1]);
        PrintWriter out = new PrintWriter(System.out, false);
        if (args.length > 2 && args[2].equals("await-go")) {
            out.println("ready");
            Children.flushOrExit(out);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (!"go".equals(in.readLine())) {
                return;
            }
        }
        out.println("creating");
        Children.flushOrExit(out);
        try {
            BloomFilter.create(file, BloomSpec.builder().cells(cells).hashes(7).build()).close();
            out.println("created");
        } catch (IOException e) {
            out.println("refused " + e.getMessage());
        }
        Children.flushOrExit(out);
    }
}

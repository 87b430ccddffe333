package io.bloomstore;

import java.nio.file.Path;

/**
 * A separate JVM that runs one checkpoint, {@code LIVE COPY}, and prints "done" when it returns:
 * with {@code -Dbloomstore.test.halt-at=checkpoint} it halts, as kill -9 would stop it, after the
 * first run of changed pages reached the copy.
 */
public final class CheckpointProcess {
    private CheckpointProcess() {
    }

    public static void main(String[] args) throws Exception {
        Checkpoint.Result result = Checkpoint.write(Path.of(args[0]), Path.of(args[1]));
        System.out.println("done " + result.pagesWritten());
    }
}

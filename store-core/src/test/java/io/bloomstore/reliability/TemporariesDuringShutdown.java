package io.bloomstore.reliability;

import io.bloomstore.internal.files.TemporaryFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Child of {@link CrashRecoveryTest}: makes temporaries beside {@code FILE} in a loop while
 * {@code System.exit} runs the shutdown hooks, as a SIGTERM landing at the start of a create would.
 * A slow hook of its own keeps the JVM running for a second after bloomstore's hook has swept, so
 * a temporary made in that second would outlive the process. Prints {@code refused} when making
 * one fails because the JVM is shutting down.
 */
public final class TemporariesDuringShutdown {
    private TemporariesDuringShutdown() {
    }

    public static void main(String[] args) throws Exception {
        Path target = Path.of(args[0]);
        TemporaryFile.beside(target, "first"); // registers bloomstore's hook before the slow one
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        PrintWriter out = new PrintWriter(System.out, false);
        new Thread(() -> System.exit(0)).start();
        while (true) {
            try {
                TemporaryFile.beside(target, "more");
            } catch (IOException e) {
                if (!e.getMessage().contains("shutting down")) {
                    throw e; // any other failure is not the refusal under test
                }
                out.println("refused");
                Children.flushOrExit(out);
                return;
            }
        }
    }
}

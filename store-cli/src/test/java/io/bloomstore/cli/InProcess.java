package io.bloomstore.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs bloomstore command lines inside the test JVM, with in-memory streams: the fast way to test parsing and output. */
final class InProcess {
    /** What a run did: its exit status and what it printed. */
    record Result(int exit, byte[] out, String err) {
        String stdout() {
            return new String(out, StandardCharsets.UTF_8);
        }

        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\n"));
        }
    }

    private InProcess() {
    }

    static Result run(String... args) {
        return run(new byte[0], false, args);
    }

    static Result runWithInput(byte[] stdin, String... args) {
        return run(stdin, false, args);
    }

    /** @param stderrIsTerminal what the run is told stderr is */
    static Result run(byte[] stdin, boolean stderrIsTerminal, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliStreams streams = new CliStreams(new ByteArrayInputStream(stdin), out,
                new PrintStream(err, true, StandardCharsets.UTF_8), false, stderrIsTerminal);
        int exit = BloomstoreCli.run(args, streams, RawArguments.none());
        return new Result(exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }
}

package io.bloomstore.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** What every verb shares: its --help, and the streams and settings of the {@link BloomstoreCli} it runs under. */
abstract class CliCommand implements Callable<Integer> {
    @ParentCommand
    BloomstoreCli cli;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    CliStreams streams() {
        return cli.streams();
    }

    RawArguments rawArguments() {
        return cli.rawArguments();
    }

    /** A progress display on stderr for a job of {@code totalBytes} (-1 if unknown), per --progress. */
    Progress progress(String task, long totalBytes) {
        return cli.progress(task, totalBytes);
    }
}

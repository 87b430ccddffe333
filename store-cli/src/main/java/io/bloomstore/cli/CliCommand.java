package io.bloomstore.cli;

import io.bloomstore.CreateOption;
import io.bloomstore.FilterBuilder;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What every verb shares: its command model with --help and examples, and the streams and settings
 * of the {@link BloomstoreCli} it runs under. Each verb declares its options and operands on
 * {@link #command} in its constructor ({@link Model}).
 */
abstract class CliCommand implements Callable<Integer> {
    /** This verb's model; picocli names it when it is registered under the top-level command. */
    final CommandSpec command;

    private final BloomstoreCli cli;

    /**
     * @param description the paragraphs of --help, the first of which the top-level --help lists
     * @param examples command lines, each indented by two spaces
     */
    CliCommand(BloomstoreCli cli, String[] description, String[] examples) {
        this.cli = cli;
        command = Model.command(this, description);
        command.usageMessage().footerHeading("%nExamples:%n").footer(examples);
        command.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help and exit.").build());
    }

    /** The create options of a verb that writes a whole new file: {@code --force} replaces an existing one. */
    static CreateOption[] replacing(boolean force) {
        return force ? new CreateOption[] {CreateOption.REPLACE_EXISTING} : new CreateOption[0];
    }

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

    /** The display of a library build's phase, named as the command line has always named it ("count", "build"...). */
    Progress progress(FilterBuilder.Stage stage, long totalBytes) {
        return progress(stage.name().toLowerCase(Locale.ROOT), totalBytes);
    }
}

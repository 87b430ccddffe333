package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.FilterFileInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code bloomstore} command: creates, fills, queries, merges, inspects, verifies, packs and
 * unpacks Bloom-filter files. Each verb is its own class; this one holds what they share (the
 * streams, the global options) and turns every failure into one line on stderr and an exit code
 * ({@link ExitCode}).
 */
public final class BloomstoreCli implements Callable<Integer> {
    private static final String[] DESCRIPTION = {
        "Persistent, memory-mapped Bloom filters: one file per filter, shared live between processes.",
        ""
    };
    private static final String[] FOOTER = {
        "Exit status: 0 ok; 1 contains: a key is absent, verify: the file is damaged; 2 error.",
        "",
        "Examples:",
        "  bloomstore build words.bloom --from words.txt --fpp 0.001",
        "  bloomstore contains words.bloom apple pear",
        "  tail -F ids.log | bloomstore dedup seen.bloom --expected 10M --fpp 1e-6 | ./process-once",
        "",
        "Run 'bloomstore COMMAND --help' for the options of a command."
    };

    /** Wide enough for the examples in the help footers to stay on one line each. */
    private static final int HELP_WIDTH = 110;

    /** The verbs, in the order --help lists them (see {@link #verb}). */
    static final List<String> VERBS = List.of("create", "build", "add", "contains", "get", "remove", "count", "dedup",
            "merge", "inspect", "estimate", "size", "verify", "pack", "unpack", "checkpoint", "serve", "import-parquet",
            "export-sbbf", "import-guava", "import-spark-sketch");

    private final CliStreams streams;
    private final RawArguments rawArguments;
    private final CommandSpec command;
    private boolean stacktrace;
    private ProgressMode progress = ProgressMode.AUTO;

    BloomstoreCli(CliStreams streams, RawArguments rawArguments) {
        this.streams = streams;
        this.rawArguments = rawArguments;
        command = Model.command(this, DESCRIPTION).name("bloomstore").versionProvider(new Version());
        command.usageMessage().commandListHeading("%nCommands:%n").footerHeading("%n").footer(FOOTER);
        // Inherited: given before or after the verb, they reach this object.
        command.addOption(flag(value -> stacktrace = value, "--stacktrace").scopeType(ScopeType.INHERIT)
                .description("On an error, print the stack trace after the message (for bug reports).").build());
        command.addOption(option(ProgressMode.class, value -> progress = value, "--progress").scopeType(ScopeType.INHERIT)
                .paramLabel("auto|always|never")
                .description("Progress bars on stderr for long jobs: auto (when stderr is a terminal, the default), "
                        + "always, never.").build());
        // picocli's standard help options, declared here because its mixinStandardHelpOptions reads them from annotations
        command.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                .description("Show this help message and exit.").build());
        command.addOption(OptionSpec.builder("-V", "--version").versionHelp(true)
                .description("Print version information and exit.").build());
    }

    /** Runs bloomstore with the process's streams and exits with its status. */
    public static void main(String[] args) throws IOException {
        Thread.setDefaultUncaughtExceptionHandler(BloomstoreCli::failedThread);
        QuickStart.prepare(args);
        String training = System.getProperty(CdsTraining.PROPERTY);
        if (training != null) {
            CdsTraining.run(Path.of(training));
            return;
        }
        System.exit(run(args, CliStreams.system(), RawArguments.of(args)));
    }

    /**
     * A thread of this process other than the command's own ended by an exception or error: the
     * command cannot be trusted to complete, so it ends as any failure does, with one line and exit 2.
     */
    private static void failedThread(Thread thread, Throwable e) {
        System.err.println("bloomstore: " + ErrorMessages.describe(e));
        System.exit(ExitCode.ERROR);
    }

    /** Runs one command line and returns its exit status; everything it prints goes to {@code streams}. */
    static int run(String[] args, CliStreams streams, RawArguments rawArguments) {
        BloomstoreCli cli = new BloomstoreCli(streams, rawArguments);
        CommandLine commandLine = new CommandLine(cli.command);
        cli.addVerbs(commandLine, args);
        // After the verbs are added: these settings reach only the subcommands registered so far.
        commandLine.setCaseInsensitiveEnumValuesAllowed(true)
                .setUsageHelpWidth(HELP_WIDTH)
                .setOut(streams.text())
                .setErr(new PrintWriter(streams.err(), true))
                .setParameterExceptionHandler(cli::usageError)
                .setExecutionStrategy(BloomstoreCli::runUnlessUnmatched)
                .setExecutionExceptionHandler(cli::failure);
        int status;
        try {
            status = commandLine.execute(args);
        } catch (Throwable e) {
            // picocli hands only Exceptions to the handler; an Error (out of memory, a fault in a mapped
            // file) is reported the same way: one line, never a stack trace, never exit 1 ("absent")
            status = cli.report(e, commandLine);
        }
        try {
            streams.text().flush();
            if (streams.text().checkError()) {
                IOException failure = streams.outputFailure();
                throw failure != null ? failure : new IOException("cannot write to stdout");
            }
            streams.out().flush();
        } catch (IOException e) {
            // Output that failed during the command was reported then; report only a new failure.
            status = status == ExitCode.ERROR ? status : cli.report(e, commandLine);
        }
        return streams.outputClosedByReader() ? ExitCode.OUTPUT_CLOSED : status;
    }

    /**
     * Registers the verb the arguments name; all of them if they name an unknown one (for the error
     * that suggests the right one) or ask for the top-level --help (which lists them); none for
     * --version. A one-key query should not pay for building the verbs it does not run.
     */
    private void addVerbs(CommandLine commandLine, String[] args) {
        String named = null;
        boolean help = false;
        for (String arg : args) {
            if (!arg.startsWith("-")) {
                named = arg;
                break;
            }
            help |= arg.equals("-h") || arg.equals("--help");
        }
        if (named != null && VERBS.contains(named)) {
            commandLine.addSubcommand(named, new CommandLine(verb(named).command));
        } else if (named != null || help) {
            for (String verb : VERBS) {
                commandLine.addSubcommand(verb, new CommandLine(verb(verb).command));
            }
        }
    }

    /** A new command for {@code name}, one of {@link #VERBS}, run under this one. */
    private CliCommand verb(String name) {
        return switch (name) {
            case "create" -> new CreateCommand(this);
            case "size" -> new SizeCommand(this);
            case "build" -> new BuildCommand(this);
            case "add" -> new AddCommand(this);
            case "contains" -> new ContainsCommand(this);
            case "get" -> new GetCommand(this);
            case "remove" -> new RemoveCommand(this);
            case "count" -> new CountCommand(this);
            case "dedup" -> new DedupCommand(this);
            case "merge" -> new MergeCommand(this);
            case "inspect" -> new InspectCommand(this);
            case "estimate" -> new EstimateCommand(this);
            case "verify" -> new VerifyCommand(this);
            case "pack" -> new PackCommand(this);
            case "unpack" -> new UnpackCommand(this);
            case "checkpoint" -> new CheckpointCommand(this);
            case "serve" -> new ServeCommand(this);
            case "import-parquet" -> new ImportParquetCommand(this);
            case "export-sbbf" -> new ExportSbbfCommand(this);
            case "import-guava" -> new ImportCommand(this, ImportCommand.Library.GUAVA);
            case "import-spark-sketch" -> new ImportCommand(this, ImportCommand.Library.SPARK_SKETCH);
            default -> throw new IllegalArgumentException("no verb " + name);
        };
    }

    @Override
    public Integer call() {
        streams.err().println("bloomstore: no command given; run 'bloomstore --help' for the list");
        return ExitCode.ERROR;
    }

    CliStreams streams() {
        return streams;
    }

    RawArguments rawArguments() {
        return rawArguments;
    }

    /** A progress display for a job of {@code totalBytes} (-1 if unknown), per --progress. */
    Progress progress(String task, long totalBytes) {
        if (!progress.shows(streams.stderrIsTerminal())) {
            return Progress.NONE;
        }
        return new ProgressBarDisplay(task, totalBytes, streams.err(), streams.stderrIsTerminal());
    }

    private int usageError(ParameterException e, String[] args) {
        CommandLine where = e.getCommandLine();
        String message = ErrorMessages.oneLine(e.getMessage());
        if (e instanceof MissingParameterException missing && tooFewOperands(missing) != null) {
            message = tooFewOperands(missing);
        } else if (e instanceof UnmatchedArgumentException) {
            List<String> unmatched = ((UnmatchedArgumentException) e).getUnmatched();
            String first = unmatched.isEmpty() ? "" : unmatched.get(0);
            if (where.getParent() == null && !first.startsWith("-")) {
                String guess = Suggestions.didYouMean(first, VERBS);
                message = "'" + first + "' is not a command" + (guess.isEmpty() ? "; the" : guess + " The")
                        + " commands are " + String.join(", ", VERBS);
            } else if (first.startsWith("-")) {
                List<String> names = where.getCommandSpec().options().stream().filter(option -> !option.hidden())
                        .flatMap(option -> Stream.of(option.names())).toList();
                message += Suggestions.didYouMean(first, names);
                if (takesKeys(where)) {
                    message += "; a key that starts with '-' goes after '--'";
                }
            }
        }
        streams.err().println("bloomstore: " + message + " (see '" + where.getCommandSpec().qualifiedName() + " --help')");
        return ExitCode.ERROR;
    }

    /**
     * "merge needs at least 2 IN operands, got 1", for a list of operands given too few values (picocli
     * says "positional parameter at index 1..* (IN) requires at least 2 values"); null for another miss.
     */
    private static String tooFewOperands(MissingParameterException e) {
        if (e.getMissing().size() != 1 || !(e.getMissing().get(0) instanceof PositionalParamSpec operands)
                || operands.arity().min() < 2) {
            return null;
        }
        Matcher given = Pattern.compile("but only (\\d+) were specified").matcher(e.getMessage());
        return e.getCommandLine().getCommandSpec().name() + " needs at least " + operands.arity().min() + " "
                + operands.paramLabel() + " operands" + (given.find() ? ", got " + given.group(1) : "");
    }

    /**
     * Runs what was parsed, as picocli's default strategy does, unless an argument matched nothing:
     * picocli lets that pass when --help was asked for too, and shows the help, so that
     * {@code bloomstore no-such-verb --help} would exit 0 as if the verb existed.
     */
    private static int runUnlessUnmatched(ParseResult parsed) {
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            if (!level.unmatched().isEmpty()) {
                throw new UnmatchedArgumentException(level.commandSpec().commandLine(), level.unmatched());
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    private static boolean takesKeys(CommandLine command) {
        return command.getCommandSpec().positionalParameters().stream().anyMatch(p -> "KEY".equals(p.paramLabel()));
    }

    private int failure(Exception e, CommandLine commandLine, ParseResult parseResult) {
        return report(e, commandLine);
    }

    /** Reports a failure of the command line {@code where} as one line on stderr (and its stack trace if asked for). */
    private int report(Throwable e, CommandLine where) {
        if (streams.outputClosedByReader()) {
            return ExitCode.OUTPUT_CLOSED; // the reader's choice, not an error: nothing to say
        }
        try {
            streams.text().flush();
        } catch (Throwable again) {
            // the output may be what failed; the line on stderr is what matters now
        }
        String message = MappingFault.is(e) ? MappingFault.describe(fileOperands(where)) : ErrorMessages.describe(e);
        streams.err().println("bloomstore: " + message);
        if (stacktrace) {
            e.printStackTrace(streams.err());
        }
        return ExitCode.ERROR;
    }

    /** The file operands of the verb {@code where} ran (or names): the files a failure can be about. */
    private static List<Path> fileOperands(CommandLine where) {
        ParseResult parsed = where.getParseResult();
        while (parsed != null && parsed.subcommand() != null) {
            parsed = parsed.subcommand();
        }
        List<Path> files = new ArrayList<>();
        if (parsed != null) {
            for (PositionalParamSpec operand : parsed.matchedPositionals()) {
                Object value = operand.getValue();
                if (value instanceof Path file) {
                    files.add(file);
                } else if (value instanceof List<?> values) {
                    values.stream().filter(Path.class::isInstance).map(Path.class::cast).forEach(files::add);
                }
            }
        }
        return files;
    }

    /** The version from the build ({@code version.properties}, filtered by Maven). */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties properties = new Properties();
            try (InputStream in = BloomstoreCli.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    properties.load(in);
                }
            }
            return new String[] {
                "bloomstore " + properties.getProperty("version", "(development build)"),
                "file format " + FilterFileInfo.SUPPORTED_FORMAT_VERSION + " (also reads 1; growing and windowed: 2)"
                        + "; stable and valued: 4, Java " + System.getProperty("java.version")
            };
        }
    }
}

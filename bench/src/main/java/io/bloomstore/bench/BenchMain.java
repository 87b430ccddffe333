package io.bloomstore.bench;

import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The benchmarks jar's entry point: JMH's own command line ({@code org.openjdk.jmh.Main} takes
 * the same options), with {@link BenchJvm#flags()} and {@link BenchJvm#peerFlagsFor the peers' flags}
 * appended to every fork's JVM arguments.
 *
 * <p>Without those flags a fork cannot map a filter file. Appending them here, instead of in
 * {@code @Fork} annotations, keeps them out of the source (they come from the parent pom) and
 * picks the JDK 23+ extras by the JVM that actually runs. A {@code -jvmArgsAppend} given on the
 * command line is kept and goes after them.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        CommandLineOptions cli;
        try {
            cli = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            System.err.println("Error parsing command line: " + e.getMessage());
            System.exit(1);
            return;
        }
        if (cli.shouldHelp() || cli.shouldList() || cli.shouldListWithParams() || cli.shouldListProfilers()
                || cli.shouldListResultFormats()) {
            org.openjdk.jmh.Main.main(args); // nothing forks: JMH's own handling is exact
            return;
        }
        try {
            new Runner(withBenchJvmFlags(cli)).run();
        } catch (NoBenchmarksException e) {
            System.err.println("No matching benchmarks. Miss-spelled regexp? Use -l to list them.");
            System.exit(1);
        } catch (RunnerException e) {
            System.err.println("ERROR: " + e.getMessage());
            e.printStackTrace();
            System.exit(1);
        }
    }

    /** {@code options} with the bench JVM flags put in front of any -jvmArgsAppend they carry. */
    public static Options withBenchJvmFlags(Options options) {
        List<String> append = new ArrayList<>(BenchJvm.flags());
        append.addAll(BenchJvm.peerFlagsFor(Runtime.version().feature()));
        if (options.getJvmArgsAppend().hasValue()) {
            append.addAll(options.getJvmArgsAppend().get());
        }
        return new OptionsBuilder().parent(options).jvmArgsAppend(append.toArray(new String[0])).build();
    }
}

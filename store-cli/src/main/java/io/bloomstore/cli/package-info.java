/**
 * The {@code bloomstore} command-line tool: one class per verb ({@code *Command}), the parsing and
 * help around them ({@link io.bloomstore.cli.BloomstoreCli}, {@link io.bloomstore.cli.Model}), and
 * the output (text, tables, {@code --json}, progress bars on a terminal). Its user's guide is
 * docs/CLI.md; the ITs under src/test run the shaded jar and check its output and exit codes.
 *
 * <p><b>Dependencies.</b> The CLI is a client of the library like any other: it uses the public
 * API, the package {@code io.bloomstore}, and no type of {@code io.bloomstore.internal} or of
 * Chronicle ({@code net.openhft}); {@code ApiBoundaryTest} checks the compiled classes. What a verb
 * needs that the API lacks goes into the API (as the bulk loading of {@code add}, {@code build},
 * {@code contains} and {@code dedup} did: {@link io.bloomstore.KeySource},
 * {@link io.bloomstore.FilterBuilder}). Beyond that it may use picocli (compiled in from source),
 * Jackson (for {@code --json} only), progressbar (on a terminal only) and slf4j-nop.
 *
 * <h2 id="start-up">Start-up time: why the CLI is built this way</h2>
 *
 * A one-key {@code bloomstore contains} is a JVM start, a parse, a header check and k reads of the
 * file; the target is at most 3x {@code java -version} (measured in docs/BENCHMARKS.md, "CLI start-up";
 * the numbers behind each choice below are in docs/BENCHMARKS-HISTORY.md, "CLI start-up").
 * Everything that a short run would pay for and not use is left out or put off. The choices, each
 * made because of its measured cost, are documented here once; the places that implement them
 * point here:
 * <ul>
 *   <li><b>picocli's programmatic model, not its annotations</b> ({@link io.bloomstore.cli.Model}):
 *       reading annotations makes the JDK generate a proxy class per annotation type at run time,
 *       which class-data sharing cannot archive on JDK 17.
 *   <li><b>picocli compiled from its source</b> (store-cli/pom.xml): its jar holds Java 5 class
 *       files, which class-data sharing cannot archive either, and loading and verifying them cost a
 *       third of a one-key query's start-up.
 *   <li><b>A class-data sharing archive</b>: a training run of every verb
 *       ({@link io.bloomstore.cli.CdsTraining}) lists the classes loaded, and a static archive of
 *       them (JDK classes included, so one archive is mapped rather than the JDK's plus a dynamic
 *       one) is dumped for the exact JVM that will use it, by the build (store-cli/pom.xml) and by
 *       bin/bloomstore on first use of another JVM. Before JDK 25 the archive holds none of the
 *       tool's classes when the jar's path has a character that a {@code file:} URL escapes (a
 *       space, say), so there bin/bloomstore runs a copy of the jar from the user's cache folder.
 *   <li><b>An ahead-of-time cache on JDK 25+</b> for a run that reads keys from a file or stdin:
 *       bin/bloomstore makes it on first use from the same training run (JEP 514's
 *       {@code -XX:AOTCacheOutput}) and runs such a command with {@code -XX:AOTCache} instead of the
 *       archive: the classes come loaded and linked, and the training run's method profiles let the
 *       JIT compile the hot loops sooner. A 3 M-line {@code build} used about a fifth less CPU; a
 *       one-key query gained nothing, so short runs keep the archive ({@code AotCacheIT}).
 *   <li><b>The launcher's JVM flags</b> (bin/bloomstore): no perf-data file; for create, add,
 *       contains, remove and count with every key on the command line, only the C1 compiler with
 *       one compiler thread ({@code -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1}), since such a
 *       run is over before C2 would pay and its threads compete for the CPU; anything reading keys
 *       from a file or stdin keeps the tiered compiler for its hot loops. G1 stays: on JDK 17 only
 *       G1 maps the module graph archived by CDS.
 *   <li><b>Settings made before any library starts</b> ({@link io.bloomstore.cli.QuickStart}):
 *       SLF4J is told its provider (slf4j-nop) instead of scanning the class path for one.
 *       Chronicle's posix binding needs JNR, which the parent pom leaves out (it cost most of a
 *       second to load); {@code JarContentsIT} keeps it out of the jar.
 *   <li><b>A few keys read without a mapping</b> ({@link io.bloomstore.cli.ContainsCommand#UNMAPPED_KEYS}):
 *       the first Chronicle Bytes store starts Chronicle's runtime (its {@code Jvm} class), which
 *       costs a short run as much CPU as three {@code java -version}s. {@code contains} with at most
 *       64 keys, all on the command line, opens a fixed filter with the library's
 *       {@code io.bloomstore.tools.UnmappedQueries}, which reads the probed words with positional reads and
 *       loads no Chronicle class ({@code UnmappedContainsIT}); {@link io.bloomstore.cli.QuickStart}
 *       starts the memory layer on a daemon thread, beside picocli's parse, only for a run that
 *       will map a file.
 *   <li><b>Files up to 2 GiB mapped by the JDK</b> (the library's {@code FileMapping}): Chronicle's
 *       {@code OS.map}, kept for larger files, would initialise its {@code OS} class on top of the
 *       runtime's start that a mapping run pays.
 *   <li><b>Nothing loaded that a run does not use</b>: Jackson only for {@code --json}
 *       ({@link io.bloomstore.cli.JsonOutput}), the progress bar only on a terminal, counts grouped
 *       by {@link io.bloomstore.cli.Human#count} rather than {@code String.format("%,d")} (whose
 *       first call loads the locale data), string concatenation compiled inline
 *       ({@code -XDstringConcat=inline}: no bootstrap per call site).
 * </ul>
 */
package io.bloomstore.cli;

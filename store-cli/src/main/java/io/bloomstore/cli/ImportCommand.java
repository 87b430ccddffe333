package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.CreateOption;
import io.bloomstore.FilterFileInfo;
import io.bloomstore.GuavaFilters;
import io.bloomstore.SparkSketches;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.StreamCorruptedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code bloomstore import-guava} and {@code import-spark-sketch}: another library's filter stream
 * into a mapped file of its layout, answering as the library does. One class: the two verbs differ
 * only in the stream they read and the words they use for a key's type.
 */
final class ImportCommand extends CliCommand {
    /** The library whose stream is read. */
    enum Library { GUAVA, SPARK_SKETCH }

    /** How the keys were given to the library: Guava's funnel, or the sketch's put call. */
    enum KeyType { UTF8, LONG, BYTES }

    private static final String REBUILD = "Where you have the keys, a native filter built from them "
            + "('bloomstore build OUT --from KEYS --fpp P') is sized for its rate, faster to query and merges with "
            + "bloomstore's own files; an import is for filters whose keys are gone or elsewhere.";
    private static final String[] GUAVA_DESCRIPTION = {
        "Import a Guava BloomFilter written by its writeTo (IN, or - for stdin) into a new filter file OUT that "
                + "answers every key exactly as Guava's mightContain does with the same funnel: mapped, shared by "
                + "processes, added to (setting the bits Guava's put sets), merged with imports of the same shape.",
        "--funnel says how the keys went in: utf8 for Funnels.stringFunnel(UTF_8) (ask with 'bloomstore contains OUT "
                + "KEY'), bytes for Funnels.byteArrayFunnel() (each line's bytes), long for Funnels.longFunnel() "
                + "(ask through the Java API's mightContain(long): the command line's keys are bytes).",
        "The stream is checked before OUT appears: a truncated or damaged one leaves nothing. Guava's old "
                + "MURMUR128_MITZ_32 strategy is read with a warning about its flaw.",
        REBUILD
    };
    private static final String[] GUAVA_EXAMPLES = {
        "  bloomstore import-guava users.bloom users.guava --funnel utf8",
        "  bloomstore contains users.bloom alice"
    };
    private static final String[] SPARK_DESCRIPTION = {
        "Import a Spark sketch Bloom filter (org.apache.spark.util.sketch.BloomFilter, e.g. of "
                + "DataFrame.stat.bloomFilter) written by its writeTo, version 1 or 2 (IN, or - for stdin), into a new "
                + "filter file OUT that answers as the sketch's mightContain does: mapped, shared, added to, merged "
                + "with imports of the same shape.",
        "--type says which put call the keys went in with: utf8 for putString (ask with 'bloomstore contains OUT "
                + "KEY'), bytes for putBinary (each line's bytes), long for putLong (ask through the Java API's "
                + "mightContain(long): the command line's keys are bytes).",
        "The stream is checked before OUT appears: a truncated or damaged one leaves nothing.",
        REBUILD
    };
    private static final String[] SPARK_EXAMPLES = {
        "  bloomstore import-spark-sketch ids.bloom ids.sketch --type utf8",
        "  bloomstore contains ids.bloom order-42"
    };

    private final Library library;
    private Path out;
    private String in;
    private KeyType keys;
    private boolean force;

    ImportCommand(BloomstoreCli cli, Library library) {
        super(cli, library == Library.GUAVA ? GUAVA_DESCRIPTION : SPARK_DESCRIPTION,
                library == Library.GUAVA ? GUAVA_EXAMPLES : SPARK_EXAMPLES);
        this.library = library;
        command.addPositional(operand(0, "OUT", Path.class, value -> out = value)
                .description("The filter file to create.").build());
        command.addPositional(operand(1, "IN|-", String.class, value -> in = value)
                .description("The " + (library == Library.GUAVA ? "Guava" : "Spark sketch")
                        + " stream to read, or - for stdin.").build());
        command.addOption(option(KeyType.class, value -> keys = value, library == Library.GUAVA ? "--funnel" : "--type")
                .paramLabel("utf8|long|bytes").required(true)
                .description(library == Library.GUAVA ? "The funnel the keys were put with." : "The put call the keys were put with.")
                .build());
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace OUT if it exists (atomically, once the stream has been read).").build());
    }

    @Override
    public Integer call() throws Exception {
        boolean fromStdin = LineInput.STDIN.equals(in);
        String source = fromStdin ? "stdin" : in;
        if (!fromStdin && Files.isDirectory(Path.of(in))) {
            throw new FileSystemException(in, null, "is a directory, not a filter stream");
        }
        CreateOption[] options = replacing(force);
        FilterFileInfo info;
        try (InputStream input = new BufferedInputStream(fromStdin ? streams().in() : Files.newInputStream(Path.of(in)),
                1 << 16)) {
            info = library == Library.GUAVA ? GuavaFilters.importStream(input, out, options)
                    : SparkSketches.importStream(input, out, options);
        } catch (EOFException | StreamCorruptedException e) {
            // the stream's fault, which the core cannot name: the file system's refusals name their own files
            throw new IOException(source + ": " + e.getMessage() + "; nothing was created", e);
        }
        long seed = info.spec().seed();
        String kind = library == Library.GUAVA ? "Guava BloomFilter (" + (seed == 0 ? "MURMUR128_MITZ_32" : "MURMUR128_MITZ_64") + ")"
                : "Spark sketch BloomFilter version " + (seed >>> 32);
        if (library == Library.GUAVA && seed == 0) {
            streams().err().println("bloomstore: warning: " + source + " uses Guava's old MURMUR128_MITZ_32 strategy, whose"
                    + " int arithmetic probes only the first 2^31 bits: a filter larger than that answers at a far higher"
                    + " false-positive rate than it was sized for. The import answers as Guava does, flaw included;"
                    + " rebuild it natively from its keys (bloomstore build) if you have them.");
        }
        streams().text().println("imported " + kind + " " + source + " into " + out + ": "
                + Human.shape(info.spec(), info.fileLength()));
        streams().text().println(keys == KeyType.LONG
                ? "its keys are longs: ask through the Java API's mightContain(long) (the command line's keys are bytes)"
                : "ask it: bloomstore contains " + out + " KEY...");
        return ExitCode.OK;
    }
}

package io.bloomstore.cli;

import io.bloomstore.filter.BloomFilter;
import io.bloomstore.filter.OpenMode;
import io.bloomstore.ops.Merge;
import io.bloomstore.ops.MergeOp;
import io.bloomstore.spec.BloomSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bloomstore merge}: the union or intersection of filters, into a new file. */
@Command(name = "merge", sortOptions = false,
        description = {
            "Combine two or more filters of the same shape (cells, hashes, counter bits, layout, hash and seed) "
                    + "into a new filter OUT.",
            "--op or (the default) gives the union: exactly the filter of all keys of all inputs; --op and contains "
                    + "the intersection (with a higher false-positive rate than a filter built from it). Counting "
                    + "filters add (or) or take the minimum (and) of their counters.",
            "Inputs of different shapes are refused, naming the field that differs. OUT appears only when complete, "
                    + "sealed; an existing OUT is kept unless --force."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  bloomstore merge all.bloom part-1.bloom part-2.bloom part-3.bloom",
            "  bloomstore merge both.bloom monday.bloom tuesday.bloom --op and"
        })
final class MergeCommand extends CliCommand {
    @Parameters(index = "0", paramLabel = "OUT", description = "The filter file to write.")
    Path out;

    @Parameters(index = "1..*", arity = "2..*", paramLabel = "IN", description = "The filters to combine, two or more.")
    List<Path> inputs;

    @Option(names = "--op", paramLabel = "or|and", defaultValue = "or",
            description = "or: union (the default); and: intersection.")
    MergeOp op;

    @Option(names = "--force", description = "Replace OUT if it exists (atomically, once the merge is complete).")
    boolean force;

    @Override
    public Integer call() throws Exception {
        BloomSpec spec = BloomFilter.readHeader(inputs.get(0)).spec();
        try (Progress progress = progress("merge", spec.cellBytes())) {
            Merge.toNewFile(out, inputs, op, force, progress::update);
        }
        try (BloomFilter merged = BloomFilter.open(out, OpenMode.READ_WRITE)) {
            merged.seal();
        }
        streams().text().println("merged " + inputs.size() + " filters (" + op.cliName() + ") into " + out + ": "
                + Human.shape(spec, Files.size(out)) + "; sealed");
        return ExitCode.OK;
    }
}

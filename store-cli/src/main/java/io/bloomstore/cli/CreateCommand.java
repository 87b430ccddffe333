package io.bloomstore.cli;

import io.bloomstore.filter.BloomFilter;
import io.bloomstore.spec.BloomSpec;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bloomstore create}: a new, empty filter file. */
@Command(name = "create", sortOptions = false,
        description = {
            "Create an empty filter file, sized either for N keys at a false-positive rate P (m and k are derived), "
                    + "or given its cells M and hashes K directly.",
            "The file appears atomically and fully allocated on disk (unless --sparse); an existing file is kept "
                    + "unless --force."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  bloomstore create users.bloom --expected 1M --fpp 0.01",
            "  bloomstore create big.bloom --expected 200M --fpp 1e-3 --layout blocked",
            "  bloomstore create counts.bloom --expected 100k --fpp 0.01 --counter-bits 4   # can remove keys",
            "  bloomstore create exact.bloom --cells 8M --hashes 5 --seed random"
        })
final class CreateCommand extends CliCommand {
    @Parameters(index = "0", paramLabel = "FILE", description = "The filter file to create.")
    Path file;

    @Mixin
    ShapeOptions shape;

    @Option(names = "--force", description = "Replace FILE if it exists (atomically: readers of the old file keep it).")
    boolean force;

    @Override
    public Integer call() throws Exception {
        BloomSpec spec = shape.spec(null);
        try (BloomFilter filter = BloomFilter.create(file, spec, shape.createOptions(force))) {
            streams().text().println("created " + file + ": " + Human.shape(spec, filter.header().fileLength()));
        }
        return ExitCode.OK;
    }
}

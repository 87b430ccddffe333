package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import java.nio.file.Path;

/** {@code bloomstore create}: a new, empty filter file. */
final class CreateCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Create an empty filter file, sized either for N keys at a false-positive rate P (m and k are derived), "
                + "or given its cells M and hashes K directly.",
        "The file appears atomically and fully allocated on disk (unless --sparse); an existing file is kept "
                + "unless --force."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore create users.bloom --expected 1M --fpp 0.01",
        "  bloomstore create big.bloom --expected 200M --fpp 1e-3 --layout blocked",
        "  bloomstore create counts.bloom --expected 100k --fpp 0.01 --counter-bits 4   # can remove keys",
        "  bloomstore create exact.bloom --cells 8M --hashes 5 --seed random"
    };

    private Path file;
    private final ShapeOptions shape;
    private boolean force;

    CreateCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file to create.").build());
        shape = new ShapeOptions(command);
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace FILE if it exists (atomically: readers of the old file keep it).").build());
    }

    @Override
    public Integer call() throws Exception {
        BloomSpec spec = shape.spec(null);
        try (BloomFilter filter = BloomFilter.create(file, spec, shape.createOptions(force))) {
            streams().text().println("created " + file + ": " + Human.shape(spec, filter.info().fileLength()));
        }
        return ExitCode.OK;
    }
}

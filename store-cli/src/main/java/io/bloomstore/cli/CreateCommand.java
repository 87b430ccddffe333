package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.MembershipFilter;
import java.nio.file.Path;

/** {@code bloomstore create}: a new, empty filter file. */
final class CreateCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Create an empty filter file, sized either for N keys at a false-positive rate P (m and k are derived), "
                + "or given its cells M and hashes K directly.",
        "The file appears atomically and fully allocated on disk (unless --sparse); an existing file is kept "
                + "unless --force.",
        "With --grow, a growing filter that never fills: the first segment holds N keys, and the false-positive "
                + "rate stays under P however many come. With --window, a filter that forgets: a key is found for "
                + "at least DURATION after it was added, and forgotten within DURATION plus one epoch."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore create users.bloom --expected 1M --fpp 0.01",
        "  bloomstore create big.bloom --expected 200M --fpp 1e-3 --layout blocked",
        "  bloomstore create counts.bloom --expected 100k --fpp 0.01 --counter-bits 4   # can remove keys",
        "  bloomstore create exact.bloom --cells 8M --hashes 5 --seed random",
        "  bloomstore create seen.bloom --expected 1M --fpp 1e-6 --grow --max-size 10G   # never fills",
        "  bloomstore create recent.bloom --expected 5M --fpp 0.001 --window 24h --epochs 8   # forgets after a day",
        "  bloomstore create clicks.bloom --stable --fpp 0.01 --expected 1M   # dedup of an endless stream",
        "  bloomstore create labels.bloom --values max --value-bits 2 --expected 1M --fpp 0.001   # a value per key"
    };

    private Path file;
    private final ShapeOptions shape;
    private final CellRuleOptions rules;
    private boolean force;

    CreateCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file to create.").build());
        shape = new ShapeOptions(command);
        rules = new CellRuleOptions(command);
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace FILE if it exists (atomically: readers of the old file keep it).").build());
    }

    @Override
    public Integer call() throws Exception {
        if (rules.asked()) {
            streams().text().println("created " + file + ": " + rules.create(file, force, shape)
                    + (shape.sparse ? "; sparse: blocks are allocated as keys set cells" : "; allocated on disk"));
            return ExitCode.OK;
        }
        try (MembershipFilter filter = shape.create(file, force, false)) {
            // what the disk gave up, said at once: a mistyped size shows here, not when the disk is full
            streams().text().println("created " + file + ": " + CliFilters.describe(filter)
                    + (shape.sparse ? "; sparse: blocks are allocated as keys set cells" : "; allocated on disk"));
        }
        return ExitCode.OK;
    }
}

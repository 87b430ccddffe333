package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;

import io.bloomstore.BloomSpec;
import io.bloomstore.BloomierMap;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code build --map --value-bits R [--fpp P]}: a Bloomier map from {@code KEY<TAB>VALUE} lines,
 * declared on the build command and run in its place when --map is given.
 */
final class MapBuildOptions {
    private boolean map;

    /** Declares --map on {@code command}, read into this; --value-bits is {@link CellRuleOptions}'s. */
    MapBuildOptions declareOn(CommandSpec command) {
        command.addOption(flag(value -> map = value, "--map")
                .description("Build a Bloomier map (a static map from keys to values) from KEY<TAB>VALUE lines instead of a "
                        + "filter: 'get' answers each key of the map its value, and other keys 'absent' but for --fpp P "
                        + "(default 1/256). Needs --value-bits.").build());
        return this;
    }

    boolean isGiven() {
        return map;
    }

    /** Runs the map build of {@code command}; options of filters only are refused. */
    int build(CliCommand command, Path file, LineInput input, boolean force, ShapeOptions shape, CellRuleOptions rules)
            throws IOException {
        Integer valueBits = rules.valueBits();
        if (rules.kindAsked()) {
            throw new IllegalArgumentException("build --map makes a Bloomier map; --stable, --values and --size make filters:"
                    + " leave them out");
        }
        if (valueBits == null) {
            throw new IllegalArgumentException("build --map needs --value-bits R: the bits of a value (values 0 to 2^R-1)");
        }
        if (shape.expected != null || shape.cells != null || shape.hashes != null || shape.grow || shape.window != null
                || shape.layout != null || shape.counterBits != 1 || shape.sparse) {
            throw new IllegalArgumentException("build --map takes --from, --value-bits, --fpp, --seed and --force; the others"
                    + " shape filters (a map is sized by its pairs)");
        }
        if (!input.isGiven()) {
            throw new IllegalArgumentException("build --map needs --from PATH (or --from - for stdin): KEY<TAB>VALUE lines");
        }
        long distinct;
        try (BloomierMap.Builder builder = BloomierMap.builder(file, valueBits).options(CliCommand.replacing(force))
                .seed(shape.seed != null ? shape.seed : BloomSpec.DEFAULT_SEED).progress(command::progress)) {
            if (shape.fpp != null) {
                builder.fpp(shape.fpp);
            }
            try (InputStream in = input.isStdin() ? command.streams().in() : Files.newInputStream(input.path())) {
                builder.putLines(in, input.name(), input.size());
            }
            distinct = builder.build();
        }
        try (BloomierMap built = BloomierMap.open(file)) {
            command.streams().text().println("built " + file + " from " + Human.count(distinct) + " pairs: Bloomier map, "
                    + MapReports.shape(built.shape()) + ", " + Human.bytes(built.fileBytes()));
        }
        return ExitCode.OK;
    }
}

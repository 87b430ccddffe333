package io.bloomstore.cli;

import io.bloomstore.FilterBuilder;
import io.bloomstore.KeySource;
import io.bloomstore.ValuedFilter;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code build --stable} (a stable filter from keys, one per line) and {@code build --values}
 * (a valued filter from KEY&lt;TAB&gt;VALUE lines), through the library's {@link FilterBuilder} as a
 * plain build: filled in a hidden temporary beside FILE, sealed, and published under FILE only when
 * complete, so a failed or killed build leaves nothing (a kill -9's temporary is swept by the next
 * command beside FILE) and an existing FILE is kept unless --force.
 */
final class CellRuleBuild {
    private CellRuleBuild() {
    }

    /** Runs {@code command}'s build of the stable or valued filter {@code rules} describe. */
    static int run(CliCommand command, Path file, LineInput input, boolean force, ShapeOptions shape, CellRuleOptions rules)
            throws IOException {
        if (!input.isGiven()) {
            throw new IllegalArgumentException("build needs --from PATH (or --from - for stdin): the keys, one per line"
                    + (rules.valued() ? ", each KEY<TAB>VALUE" : ""));
        }
        FilterBuilder builder = rules.builder(file, shape, shape.createOptions(force)); // refuses bad options before any input is read
        Built built = builder.filledBy(filter -> {
            try (KeySource lines = input.open(command.streams(), null);
                    Progress progress = command.progress("build", input.size())) {
                lines.onProgress(progress::update);
                if (rules.valued()) {
                    return new Built(ValuedPairs.addLines(ValuedFilter.of(filter).orElseThrow(), lines, input.name(), file),
                            rules.describe(filter));
                }
                KeySource.Added added = lines.addTo(filter);
                return new Built(new ValuedPairs.Counts(added.keys(), added.newKeys()), rules.describe(filter));
            }
        });
        long keys = built.counts().pairs();
        long changed = built.counts().changed();
        String what = rules.valued() ? (keys == 1 ? " pair" : " pairs") : (keys == 1 ? " key" : " keys");
        command.streams().text().println("built " + file + " from " + Human.count(keys) + what + " (" + Human.count(changed)
                + (rules.valued() ? " changed a cell" : " read absent before") + "): " + built.made() + "; sealed");
        return ExitCode.OK;
    }

    /** What was added, and the new filter in words. */
    private record Built(ValuedPairs.Counts counts, String made) {
    }
}

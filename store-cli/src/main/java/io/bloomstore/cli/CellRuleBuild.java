package io.bloomstore.cli;

import io.bloomstore.CreateOption;
import io.bloomstore.KeySource;
import io.bloomstore.ValuedFilter;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * {@code build --stable} (a stable filter from keys, one per line) and {@code build --values}
 * (a valued filter from KEY&lt;TAB&gt;VALUE lines), as a plain build makes its file: filled in a
 * hidden temporary beside FILE, sealed, and published under FILE only when complete, so a failed
 * build leaves nothing and an existing FILE is kept unless --force.
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
        if (rules.valued()) {
            rules.valuedSpec(shape); // refuse bad options before reading any input
        } else {
            rules.stableSpec(shape);
        }
        if (!force && Files.exists(file)) {
            throw new FileAlreadyExistsException(file.toString());
        }
        Path building = file.toAbsolutePath().resolveSibling("." + file.getFileName() + ".building-"
                + ProcessHandle.current().pid());
        long keys;
        long changed;
        String made;
        boolean published = false;
        try {
            try (CellRuleOptions.Made filter = rules.make(building, shape, shape.createOptions(true));
                    KeySource lines = input.open(command.streams(), null);
                    Progress progress = command.progress("build", input.size())) {
                lines.onProgress(progress::update);
                if (rules.valued()) {
                    ValuedPairs.Counts counts = ValuedPairs.addLines(ValuedFilter.of(filter.filter()).orElseThrow(), lines,
                            input.name(), file);
                    keys = counts.pairs();
                    changed = counts.changed();
                } else {
                    KeySource.Added added = lines.addTo(filter.filter());
                    keys = added.keys();
                    changed = added.newKeys();
                }
                filter.filter().seal();
                made = filter.description();
            }
            publish(building, file, force);
            published = true;
        } finally {
            if (!published) {
                Files.deleteIfExists(building);
            }
        }
        String what = rules.valued() ? (keys == 1 ? " pair" : " pairs") : (keys == 1 ? " key" : " keys");
        command.streams().text().println("built " + file + " from " + Human.count(keys) + what + " (" + Human.count(changed)
                + (rules.valued() ? " changed a cell" : " read absent before") + "): " + made + "; sealed");
        return ExitCode.OK;
    }

    /**
     * Gives the complete file its name: a rename over FILE when replacing, else a hard link that
     * fails if FILE appeared meanwhile (a rename would silently replace it).
     */
    private static void publish(Path building, Path file, boolean replace) throws IOException {
        if (replace) {
            Files.move(building, file, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        try {
            Files.createLink(file, building);
        } catch (UnsupportedOperationException e) {
            Files.move(building, file); // no hard links here: refused too if FILE exists, though not atomically
            return;
        }
        Files.delete(building);
    }
}

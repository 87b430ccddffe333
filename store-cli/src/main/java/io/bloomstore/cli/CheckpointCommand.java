package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.Checkpoint;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code bloomstore checkpoint}: a durable copy of a live filter, brought up to date by its changed pages. */
final class CheckpointCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Bring COPY up to date with the live filter LIVE by writing only the 4 KiB pages that differ, in file "
                + "order, then force COPY to the device: it then holds every add that returned before the "
                + "checkpoint began, and survives a power cut.",
        "For a large filter shared by processes: keep LIVE in memory (/dev/shm), where the kernel never writes it "
                + "back, and checkpoint it to disk where you would sync. Each checkpoint writes what changed since "
                + "the last, never a multiple of it (docs/RELIABILITY.md).",
        "An absent (or empty) COPY is created whole, atomically; an existing one must be an earlier checkpoint of "
                + "LIVE. A checkpoint cut short leaves a COPY that opens clean and holds every key of the checkpoint "
                + "before. To restore after a reboot, checkpoint the other way: COPY into an absent LIVE.",
        "A checkpoint never goes backwards: a COPY newer than LIVE (more keys, removes, segments or a later epoch: "
                + "the arguments swapped, say) is refused before anything is written, exit 2; --force writes the "
                + "older LIVE over it all the same, losing what was added to COPY since. A damaged LIVE is refused "
                + "as verify would refuse it."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore create /dev/shm/seen.bloom --expected 500M --fpp 0.01",
        "  bloomstore checkpoint /dev/shm/seen.bloom /data/seen.bloom      # every few minutes, from cron or the app",
        "  bloomstore checkpoint /data/seen.bloom /dev/shm/seen.bloom      # after a reboot: restore",
        "  bloomstore checkpoint /dev/shm/seen.bloom /data/seen.bloom --json | jq .bytesWritten"
    };

    private Path live;
    private Path copy;
    private boolean json;
    private boolean force;

    CheckpointCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "LIVE", Path.class, value -> live = value)
                .description("The filter file in use (of any kind); others may keep adding to it meanwhile.").build());
        command.addPositional(operand(1, "COPY", Path.class, value -> copy = value)
                .description("Its durable copy: created if absent, else updated in place.").build());
        command.addOption(flag(value -> force = value, "--force")
                .description("Write LIVE over COPY even when COPY is newer (restoring an old copy over the file it was "
                        + "taken from on purpose): what was added to COPY since is lost.").build());
        command.addOption(flag(value -> json = value, "--json")
                .description("Print what was written as JSON (fileLength, bytesWritten, pagesWritten, created, "
                        + "passes, seconds).").build());
    }

    /** The --json output: {@link Checkpoint.Result} and the time the checkpoint took. */
    record Report(String live, String copy, long fileLength, long bytesWritten, long pagesWritten, boolean created,
            int passes, double seconds) {
    }

    @Override
    public Integer call() throws Exception {
        long started = System.nanoTime();
        Checkpoint.Result result;
        try (Progress progress = progress("checkpoint", Files.size(live))) {
            result = force ? Checkpoint.write(live, copy, progress::update, Checkpoint.Option.OLDER_OVER_NEWER)
                    : Checkpoint.write(live, copy, progress::update);
        } catch (Checkpoint.BackwardsException e) {
            throw new IllegalArgumentException(e.reason() + "; if you mean to write the older " + live + " over it, "
                    + "losing that, run the checkpoint again with --force", e);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (json) {
            JsonOutput.write(new Report(live.toString(), copy.toString(), result.fileLength(), result.bytesWritten(),
                    result.pagesWritten(), result.created(), result.passes(), seconds), streams().text());
            return ExitCode.OK;
        }
        String what = result.created()
                ? "created " + copy + " from " + live + " (" + Human.bytes(result.bytesWritten()) + ")"
                : "checkpointed " + live + " into " + copy + ": " + Human.count(result.pagesWritten()) + " of "
                        + Human.count(result.fileLength() / 4096) + " pages changed, " + Human.bytes(result.bytesWritten())
                        + " written";
        streams().text().println(what + String.format(" in %.2f s", seconds));
        return ExitCode.OK;
    }
}

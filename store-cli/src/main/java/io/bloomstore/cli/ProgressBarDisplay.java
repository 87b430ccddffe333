package io.bloomstore.cli;

import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A {@link Progress} drawn by the progressbar library on stderr, in MiB. Only this class refers to
 * the library, so a run without a bar never loads it (nor JLine under it): short commands stay fast.
 */
final class ProgressBarDisplay implements Progress {
    private static final long MIB = 1 << 20;
    /** Width used when stderr is not a terminal (forced with --progress=always): no terminal to ask. */
    private static final int FIXED_WIDTH = 100;

    private final ProgressBar bar;

    /**
     * @param totalBytes the expected total, or -1 when unknown (the bar then only counts)
     * @param askTerminalWidth whether stderr is a terminal whose width the library may query
     */
    ProgressBarDisplay(String task, long totalBytes, PrintStream err, boolean askTerminalWidth) {
        ConsoleProgressBarConsumer consumer = askTerminalWidth
                ? new ConsoleProgressBarConsumer(err)
                : new ConsoleProgressBarConsumer(err, FIXED_WIDTH);
        this.bar = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(totalBytes)
                .setUnit(" MiB", MIB)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(200)
                .showSpeed()
                .setConsumer(consumer)
                .build();
    }

    @Override
    public void update(long done) {
        bar.stepTo(done);
    }

    @Override
    public void close() {
        bar.close();
    }
}

package io.bloomstore.cli;

import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A {@link Progress} drawn by the progressbar library on stderr, in MiB. Only this class refers to
 * the library, so a run without a bar never loads it: short commands stay fast.
 *
 * <p>The bar is always given its width. Left to find it, the library asks JLine for the terminal,
 * and JLine's system terminal installs its own SIGINT handler in place of the JVM's: Ctrl-C then
 * ended the process without its shutdown hooks, and {@code build} left its full-size temporary
 * behind every time. {@link Terminals#columns} finds the width without JLine.
 */
final class ProgressBarDisplay implements Progress {
    private static final long MIB = 1 << 20;
    /** Width used when stderr is not a terminal (forced with --progress=always): no terminal to ask. */
    private static final int FIXED_WIDTH = 100;
    /** Columns the library keeps free at the right, as it does when it measures the terminal itself. */
    private static final int RIGHT_MARGIN = 2;

    private final ProgressBar bar;

    /**
     * @param totalBytes the expected total, or -1 when unknown (the bar then only counts)
     * @param askTerminalWidth whether stderr is a terminal whose width the library may query
     */
    ProgressBarDisplay(String task, long totalBytes, PrintStream err, boolean askTerminalWidth) {
        int width = askTerminalWidth ? Terminals.columns(FIXED_WIDTH + RIGHT_MARGIN) - RIGHT_MARGIN : FIXED_WIDTH;
        ConsoleProgressBarConsumer consumer = new ConsoleProgressBarConsumer(err, width);
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

package io.bloomstore.cli;

import io.bloomstore.FilterKind;
import io.bloomstore.tools.FileForensics;
import io.bloomstore.tools.Startup;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.nop.NOPServiceProvider;

/**
 * Settings made before any library starts, and the memory layer's start on a thread of its own
 * for a run that will map a file: part of the CLI's start-up budget (why and how it is kept: this
 * package's package-info). Safe only in a process that is the CLI: they change global state of
 * libraries a host application might use otherwise.
 */
final class QuickStart {
    private QuickStart() {
    }

    /** Makes the settings, and starts the memory layer unless {@code args} will map no file. */
    static void prepare(String[] args) {
        // SLF4J finds its binding by scanning the class path unless named; name it (slf4j-nop, on
        // purpose: the CLI prints only what it means to print) and keep SLF4J's own notice about it quiet.
        setIfAbsent("slf4j.provider", NOPServiceProvider.class.getName());
        setIfAbsent("slf4j.internal.verbosity", "WARN");
        // A command that fails at once may exit while the memory layer is still starting; without
        // Chronicle's background releaser thread (which the mappings do not need: they unmap by
        // themselves), no thread is left to print the failure of a shutdown hook registered too late.
        setIfAbsent("background.releaser", "false");
        if (!mapsNoFile(args)) {
            Startup.prepareInBackground();
        }
    }

    /**
     * Whether {@code args} look like a {@code contains} of a fixed filter that will read its file
     * unmapped ({@link ContainsCommand#queriesUnmapped}): told before picocli parses them, from the
     * raw arguments and the file's first bytes. A wrong "no" only starts the memory layer for
     * nothing; a wrong "yes" makes the mapping pay its start on the main thread. So anything unclear
     * (an option before the verb, a file that cannot be read) is a "no"; option values after the
     * verb count as keys, which can only lower the bound.
     */
    static boolean mapsNoFile(String[] args) {
        String verb = null;
        String file = null;
        int keys = 0;
        boolean options = true;
        for (String arg : args) {
            if (options && arg.equals("--")) {
                options = false;
            } else if (options && (arg.equals("--from") || arg.startsWith("--from="))) {
                return false;
            } else if (!options || !arg.startsWith("-") || arg.equals("-")) {
                if (verb == null) {
                    verb = arg;
                } else if (file == null) {
                    file = arg;
                } else {
                    keys++;
                }
            } else if (verb == null) {
                return false;
            }
        }
        if (!"contains".equals(verb) || file == null || !ContainsCommand.queriesUnmapped(keys, false)) {
            return false;
        }
        try {
            return FileForensics.kind(Path.of(file)) == FilterKind.FIXED;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}

package io.bloomstore.cli;

import io.bloomstore.BloomFilter;
import org.slf4j.nop.NOPServiceProvider;

/**
 * Settings made before any library starts, and the memory layer's start on a thread of its own: part
 * of the CLI's start-up budget (why and how it is kept: this package's package-info). Safe only in a
 * process that is the CLI: they change global state of libraries a host application might use
 * otherwise.
 */
final class QuickStart {
    private QuickStart() {
    }

    static void prepare() {
        // SLF4J finds its binding by scanning the class path unless named; name it (slf4j-nop, on
        // purpose: the CLI prints only what it means to print) and keep SLF4J's own notice about it quiet.
        setIfAbsent("slf4j.provider", NOPServiceProvider.class.getName());
        setIfAbsent("slf4j.internal.verbosity", "WARN");
        // A command that fails at once may exit while the memory layer is still starting; without
        // Chronicle's background releaser thread (which the mappings do not need: they unmap by
        // themselves), no thread is left to print the failure of a shutdown hook registered too late.
        setIfAbsent("background.releaser", "false");
        BloomFilter.prepareInBackground();
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}

package io.bloomstore.cli;

import net.openhft.posix.PosixAPI;
import org.slf4j.nop.NOPServiceProvider;

/**
 * Settings made before Chronicle starts, which cut the CLI's start-up by several hundred
 * milliseconds (measurements in docs/BENCHMARKS.md, "CLI start-up"). Chronicle's {@code OS} maps
 * only files beyond 2 GiB (see {@code FileMapping}), so most commands never start it. Safe only in a
 * process that is the CLI: they change global state of libraries a host application might use
 * otherwise.
 */
final class QuickStart {
    private QuickStart() {
    }

    static void prepare() {
        // Chronicle's first use loads its posix binding eagerly. The build leaves JNR out (parent pom),
        // so that would fail over to the no-op binding anyway; choose it up front, so a JNR that comes
        // back on the class path can never cost the CLI its most of a second again.
        PosixAPI.useNoOpPosixApi();
        // SLF4J finds its binding by scanning the class path unless named; name it (slf4j-nop, on
        // purpose: the CLI prints only what it means to print) and keep SLF4J's own notice about it quiet.
        setIfAbsent("slf4j.provider", NOPServiceProvider.class.getName());
        setIfAbsent("slf4j.internal.verbosity", "WARN");
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}

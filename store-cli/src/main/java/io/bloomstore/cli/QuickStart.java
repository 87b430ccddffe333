package io.bloomstore.cli;

import net.openhft.chronicle.core.OS;
import net.openhft.posix.PosixAPI;
import org.slf4j.nop.NOPServiceProvider;

/**
 * Settings made before Chronicle Bytes starts, and its start beside the command-line parsing, which
 * cut the CLI's start-up by several hundred milliseconds (measurements in docs/BENCHMARKS.md, "CLI
 * start-up"). Safe only in a process that is the CLI: they change global state of libraries a host
 * application might use otherwise.
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

    /**
     * Starts Chronicle on a second thread, while this one reads the command line: the class
     * initialisation its first mapping needs (its OS and Jvm classes: the runtime MXBean, exception
     * handlers, SLF4J) is about 30 ms of a one-key query, and picocli's start-up as long again, so on
     * two cores they overlap. Call it after {@link #prepare()}. This thread reports nothing: a command
     * that maps a file meets any failure of Chronicle's itself (as a NoClassDefFoundError if its
     * initialisation failed here), and a command that maps none does not wait for it.
     */
    static void startChronicle() {
        Thread starter = new Thread(QuickStart::initChronicle, "bloomstore-chronicle-start");
        starter.setDaemon(true);
        starter.start();
    }

    private static void initChronicle() {
        try {
            OS.pageSize(); // initialises OS, and Jvm with it
        } catch (Throwable e) {
            // left to the command that maps a file, if one does
        }
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}

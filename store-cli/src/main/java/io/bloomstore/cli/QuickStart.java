package io.bloomstore.cli;

import java.nio.ByteBuffer;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.posix.PosixAPI;
import org.slf4j.nop.NOPServiceProvider;

/**
 * Settings made before Chronicle starts, which cut the CLI's start-up by several hundred
 * milliseconds, and Chronicle's start on a thread of its own (measurements in docs/BENCHMARKS.md,
 * "CLI start-up"). Safe only in a process that is the CLI: they change global state of libraries a
 * host application might use otherwise.
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
        // Every filter is read through a Chronicle Bytes store, whose first creation initialises
        // Chronicle's Jvm class (MXBeans, signal handlers, SLF4J, service lookups): tens of milliseconds
        // that would otherwise stall the command between reading the header and the first query.
        // Begun here, after the settings above, it overlaps the parsing of the command line. A
        // command that fails at once may exit while that thread is still starting Chronicle; without
        // its background releaser thread (which FileMapping does not need: it unmaps by itself), no
        // thread is left to print the failure of a shutdown hook registered too late.
        setIfAbsent("background.releaser", "false");
        Thread chronicle = new Thread(QuickStart::startChronicle, "bloomstore-chronicle-start");
        chronicle.setDaemon(true);
        chronicle.start();
    }

    private static void startChronicle() {
        try {
            BytesStore.follow(ByteBuffer.allocateDirect(Long.BYTES)).releaseLast();
        } catch (Throwable e) {
            // Only a head start: a failure here (say, a hook refused because the JVM is already
            // exiting after --version) happens again, and is reported, where the command needs Chronicle.
        }
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}

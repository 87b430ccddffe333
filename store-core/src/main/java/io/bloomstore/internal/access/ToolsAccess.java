package io.bloomstore.internal.access;

import java.io.IOException;
import java.nio.file.Path;

/** What the API publishes for {@code io.bloomstore.tools}, and how tools reaches it. */
public final class ToolsAccess {
    /** The API's class that publishes {@link #unmappedOpener} when it is initialised. */
    private static final String UNMAPPED_PUBLISHER = "io.bloomstore.FileOpener";

    private static volatile Opener unmappedOpener;

    private ToolsAccess() {
    }

    /** Opens the file at a path as the API would, in a way it does not publish. */
    @FunctionalInterface
    public interface Opener {
        /**
         * Opens the file.
         *
         * @param path the file
         * @return the open handle
         * @throws IOException as the API's own opens
         */
        Object open(Path path) throws IOException;
    }

    /**
     * Called by the API once, as its class initialises.
     *
     * @param opener opens a filter file of any kind for a few queries, a fixed filter unmapped
     */
    public static void publishUnmappedOpener(Opener opener) {
        unmappedOpener = opener;
    }

    /**
     * Opens the filter file at {@code path} for a few queries, a fixed filter unmapped.
     *
     * @param path the filter file
     * @param type the handle's type, which the API's opener returns
     * @param <F> that type
     * @return the open handle
     * @throws IOException as the API's opens
     */
    public static <F> F openUnmapped(Path path, Class<F> type) throws IOException {
        Opener opener = unmappedOpener;
        if (opener == null) {
            initialise(UNMAPPED_PUBLISHER);
            opener = unmappedOpener;
        }
        return type.cast(opener.open(path));
    }

    private static void initialise(String className) {
        try {
            Class.forName(className, true, ToolsAccess.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the library's " + className + " is missing from the class path", e);
        }
    }
}

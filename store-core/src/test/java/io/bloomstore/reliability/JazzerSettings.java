package io.bloomstore.reliability;

/** Jazzer settings for the fuzz tests of this package. */
final class JazzerSettings {
    private JazzerSettings() {
    }

    /**
     * When the corpus is only replayed (JAZZER_FUZZ unset: every normal test run), switches off
     * Jazzer's method hooks. They serve its sanitizers and its comparison tracing, which replaying
     * does not need, and installing them into the shared test JVM costs some 10 s of class
     * retransformation. Must run before the first fuzz test's arguments are provided (a
     * {@code @BeforeAll} does), and leaves an explicit {@code -Djazzer.hooks} alone.
     */
    static void noHooksWhenReplaying() {
        String fuzz = System.getenv("JAZZER_FUZZ");
        if ((fuzz == null || fuzz.isEmpty()) && System.getProperty("jazzer.hooks") == null) {
            System.setProperty("jazzer.hooks", "false");
        }
    }
}

package io.bloomstore.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * --json output, written by Jackson: records become objects with their components in order.
 * Loaded only when --json is asked for, so Jackson costs the other commands no start-up time.
 */
final class JsonOutput {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonOutput() {
    }

    /** Writes {@code value} as indented JSON and a newline. */
    static void write(Object value, PrintWriter out) throws IOException {
        out.println(MAPPER.writeValueAsString(value));
    }
}

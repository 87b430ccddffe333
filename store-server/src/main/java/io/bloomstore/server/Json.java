package io.bloomstore.server;

/** A JSON object or array written in order (BS.INFO's reply): only what BS.INFO needs. */
final class Json {
    private final StringBuilder text = new StringBuilder();
    private boolean array;

    Json field(String name, String value) {
        return name(name).quote(value);
    }

    Json field(String name, long value) {
        name(name).text.append(value);
        return this;
    }

    Json field(String name, double value) {
        name(name);
        if (Double.isFinite(value)) {
            text.append(value);
        } else {
            text.append("null");
        }
        return this;
    }

    Json field(String name, boolean value) {
        name(name).text.append(value);
        return this;
    }

    Json array(String name, Json elements) {
        name(name).text.append('[').append(elements.text).append(']');
        return this;
    }

    Json element(Json object) {
        array = true;
        if (!text.isEmpty()) {
            text.append(',');
        }
        text.append('{').append(object.text).append('}');
        return this;
    }

    private Json name(String name) {
        if (!text.isEmpty()) {
            text.append(',');
        }
        return quote(name).colon();
    }

    private Json colon() {
        text.append(':');
        return this;
    }

    private Json quote(String value) {
        text.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                text.append('\\').append(c);
            } else if (c < 0x20) {
                text.append(String.format("\\u%04x", (int) c));
            } else {
                text.append(c);
            }
        }
        text.append('"');
        return this;
    }

    @Override
    public String toString() {
        return array ? "[" + text + "]" : "{" + text + "}";
    }
}

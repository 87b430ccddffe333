package io.bloomstore.server;

/**
 * A command's error reply: the text after the RESP {@code -}, as Redis or RedisBloom words it
 * (e.g. {@code ERR not found}), so clients that match on those texts keep working.
 */
final class RespError extends Exception {
    private static final long serialVersionUID = 1L;

    RespError(String text) {
        super(text, null, false, false);
    }

    static RespError wrongArity(String command) {
        return new RespError("ERR wrong number of arguments for '" + command + "' command");
    }

    static RespError syntax() {
        return new RespError("ERR syntax error");
    }

    static RespError notInteger() {
        return new RespError("ERR value is not an integer or out of range");
    }
}

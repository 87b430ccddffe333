package io.bloomstore.cli;

import static io.bloomstore.cli.Model.operand;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.server.BloomServer;
import io.bloomstore.server.ServerOptions;
import io.bloomstore.server.SyncPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/** {@code bloomstore serve}: the filter files of a folder over the Redis protocol, speaking RedisBloom's BF.* commands. */
final class ServeCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Serve the filter files in DIR over the Redis protocol: any Redis client adds and queries them with "
                + "RedisBloom's commands (BF.ADD, BF.EXISTS, BF.MADD, BF.MEXISTS, BF.INSERT, BF.RESERVE, BF.INFO, ...). "
                + "Key NAME is the file DIR/NAME.bloom; a new key is a growing filter (capacity 100, error 0.01, "
                + "as RedisBloom's), or whatever BF.RESERVE makes.",
        "The files stay ordinary bloomstore files: other processes (bloomstore add/contains, the library) map and "
                + "change them meanwhile, and see the server's adds at once, as it sees theirs.",
        "Runs until SIGTERM or Ctrl-C, which close every file cleanly. Commands, replies and limits: docs/SERVER.md."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore serve data/                      # 127.0.0.1:6379",
        "  redis-cli BF.ADD seen order-42              # -> (integer) 1: data/seen.bloom",
        "  bloomstore contains data/seen.bloom order-42",
        "  bloomstore serve data/ --port 6380 --bind 0.0.0.0 --requirepass-file /etc/bloomstore.pass"
    };

    private Path dir;
    private int port = ServerOptions.DEFAULT_PORT;
    private String bind = "127.0.0.1";
    private Path unixSocket;
    private Path passwordFile;
    private String sync = "everysec";
    private int maxClients = ServerOptions.DEFAULT_MAX_CLIENTS;

    ServeCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "DIR", Path.class, value -> dir = value)
                .description("The folder of filter files to serve.").build());
        command.addOption(option(int.class, value -> port = value, "--port").paramLabel("PORT")
                .description("The TCP port (default 6379, Redis's); 0 for any free one (the start line names it).")
                .build());
        command.addOption(option(String.class, value -> bind = value, "--bind").paramLabel("ADDR")
                .description("The address to listen on (default 127.0.0.1: this host only). Anyone who reaches "
                        + "the port can add keys: with another address, give --requirepass-file.").build());
        command.addOption(option(Path.class, value -> unixSocket = value, "--unixsocket").paramLabel("PATH")
                .description("Listen on a Unix domain socket too (redis-cli -s PATH).").build());
        command.addOption(option(Path.class, value -> passwordFile = value, "--requirepass-file").paramLabel("FILE")
                .description("Require the password in FILE (its first line) from every client, by AUTH or "
                        + "HELLO AUTH, before any other command.").build());
        command.addOption(option(String.class, value -> sync = value, "--sync").paramLabel("no|everysec|always")
                .description("When adds are forced to the device: everysec (the default, about every second), "
                        + "always (before each reply), no (the kernel's choice). A kill -9 of the server loses no "
                        + "acknowledged add with any of them; they differ on a power cut.").build());
        command.addOption(option(int.class, value -> maxClients = value, "--max-clients").paramLabel("N")
                .description("The most connections served at once (default 10000).").build());
    }

    @Override
    public Integer call() throws Exception {
        SyncPolicy policy;
        try {
            policy = SyncPolicy.valueOf(sync.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--sync " + sync + " is not a policy: give no, everysec or always");
        }
        ServerOptions options = ServerOptions.of(dir).withListener(bind, port, unixSocket)
                .withPolicy(password(), policy, maxClients);
        BloomServer server = BloomServer.start(options);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "bloomstore-serve-stop"));
        streams().text().println("bloomstore serve: listening on " + server.listening() + ", serving " + dir + " ("
                + server.filesFound() + (server.filesFound() == 1 ? " filter file" : " filter files") + "), sync "
                + sync.toLowerCase(Locale.ROOT) + (options.password() != null ? ", password required" : "")
                + ", " + server.transport() + " transport");
        streams().text().flush();
        stopped.await();
        return ExitCode.OK;
    }

    private byte[] password() throws IOException {
        if (passwordFile == null) {
            return null;
        }
        byte[] bytes = Files.readAllBytes(passwordFile);
        int end = 0;
        while (end < bytes.length && bytes[end] != '\n' && bytes[end] != '\r') {
            end++;
        }
        if (end == 0) {
            throw new IllegalArgumentException(passwordFile + " holds no password on its first line: write one there");
        }
        return Arrays.copyOf(bytes, end);
    }
}

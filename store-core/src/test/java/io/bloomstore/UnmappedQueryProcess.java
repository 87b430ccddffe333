package io.bloomstore;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * A process that opens a filter file in the mode named and queries the keys given, printing each
 * answer: {@code FILE MODE KEY...}, for {@link UnmappedLoadsNoChronicleTest}. It uses nothing but
 * the public API, as the command line does.
 */
public final class UnmappedQueryProcess {
    private UnmappedQueryProcess() {
    }

    public static void main(String[] args) throws IOException {
        try (MembershipFilter filter = MembershipFilter.open(Path.of(args[0]), OpenMode.valueOf(args[1]), Clock.systemUTC())) {
            for (int i = 2; i < args.length; i++) {
                System.out.println(args[i] + "\t" + filter.mightContain(args[i]));
            }
        }
    }
}

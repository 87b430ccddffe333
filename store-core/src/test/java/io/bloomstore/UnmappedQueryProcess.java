package io.bloomstore;

import io.bloomstore.tools.UnmappedQueries;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A process that opens a filter file read-only, {@code unmapped} ({@link UnmappedQueries}) or
 * {@code mapped}, and queries the keys given, printing each answer: {@code FILE unmapped|mapped KEY...},
 * for {@link UnmappedLoadsNoChronicleTest}. It opens the file as the command line's query does.
 */
public final class UnmappedQueryProcess {
    private UnmappedQueryProcess() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        try (MembershipFilter filter = args[1].equals("unmapped") ? UnmappedQueries.open(file)
                : MembershipFilter.open(file, OpenMode.READ_ONLY)) {
            for (int i = 2; i < args.length; i++) {
                System.out.println(args[i] + "\t" + filter.mightContain(args[i]));
            }
        }
    }
}

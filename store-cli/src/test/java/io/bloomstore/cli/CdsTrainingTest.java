package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class-data sharing archive holds the classes its training run loads, so a verb whose
 * training command fails early (a merge of two filters that do not combine, then an inspect, a
 * verify and a pack of the merge that is not there) leaves its classes out, and every later run of
 * it loads them from the jar. Every command of the training must do its work: each succeeds (a
 * contains may find a key absent), but the three mistakes that train the error paths.
 */
class CdsTrainingTest {
    @TempDir
    Path dir;

    @Test
    void everyTrainingCommandDoesItsWorkButTheMistakesMeantAsSuch() throws IOException {
        List<Integer> exits = CdsTraining.run(dir.resolve("scratch"));
        String[][] commands = CdsTraining.COMMANDS;
        assertEquals(commands.length, exits.size());
        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        for (int i = 0; i < commands.length; i++) {
            String command = String.join(" ", commands[i]);
            int exit = exits.get(i);
            boolean mistake = i >= commands.length - 3;
            boolean allowedAbsent = commands[i][0].equals("contains") && exit == ExitCode.NEGATIVE;
            expected.add(command + " -> " + (mistake ? ExitCode.ERROR : allowedAbsent ? ExitCode.NEGATIVE : ExitCode.OK));
            actual.add(command + " -> " + exit);
        }
        assertEquals(expected, actual);
        try (var left = Files.list(dir.resolve("scratch"))) {
            assertEquals(List.of(), left.toList(), "the training deletes its files");
        }
    }
}

package io.bloomstore.cli;

import java.io.*;
import java.util.*;

public class SizeGrid {
    public static void main(String[] a) throws Exception {
        String[] fpps = {"0.5", "0.2", "0.05", "0.01", "0.001", "1e-4", "1e-6", "1e-9", "1e-12"};
        String[] growths = {"1", "1.5", "2", "3", "4", "16"};
        String[] keys = {"0", "1000", "1e9", "1e15"};
        String[] layouts = {"", "standard", "blocked", "sectorized"};
        String[] expected = {"1", "1000", "1e6", "1e12"};
        String[] json = {"", "--json"};
        for (String f : fpps) for (String g : growths) for (String k : keys) for (String l : layouts) for (String e : expected) for (String j : json) {
            List<String> args = new ArrayList<>(List.of("size", "--grow", "--fpp", f, "--growth", g, "--keys", k, "--expected", e));
            if (!l.isEmpty()) { args.add("--layout"); args.add(l); }
            if (!j.isEmpty()) args.add(j);
            if (j.isEmpty() && !(k.equals("1000"))) continue; // text output at one --keys, JSON at all
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            PrintStream errStream = new PrintStream(err, true);
            String[] argv = args.toArray(new String[0]);
            int status = BloomstoreCli.run(argv, new CliStreams(InputStream.nullInputStream(), out, errStream, false, false), RawArguments.of(argv));
            System.out.println("### " + String.join(" ", args) + " -> " + status);
            System.out.print(out.toString("UTF-8"));
            System.out.print(err.toString("UTF-8"));
        }
    }
}

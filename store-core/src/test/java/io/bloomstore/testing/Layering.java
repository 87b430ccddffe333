package io.bloomstore.testing;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The layering of every module, as the package-info files state it, checked on compiled classes.
 * Each module's test ({@code LayeringTest} in store-core, store-spark and bench, {@code ApiBoundaryTest}
 * in store-cli) scans its own classes with {@link #violations}; a new module adds its lines to
 * {@link #RULES} and a test of two lines, as store-server did.
 *
 * <p>A node is a package of {@code io.bloomstore}, named without that prefix, except that the
 * public package is two nodes: {@code values}, the API's value types ({@link #VALUE_TYPES}), which
 * the internal packages may use, and {@code api}, the rest (the handles and operations), which
 * they may not. Chronicle and zero-allocation-hashing ({@code net.openhft}) are the node
 * {@code net.openhft}, since the CLI must not load them; other libraries are not checked.
 *
 * <p>The dependencies of a class are read from its constant pool (JVMS 4.4), where every type it
 * uses is named (class references, field and method descriptors, signatures): an import, a fully
 * qualified name and a {@code var} are all caught.
 */
public final class Layering {
    /**
     * Who may use whom: a node, then the nodes it may depend on besides itself. {@code bench.*}
     * stands for bench and every package under it, on either side; the packages of one such group
     * may use each other, and only a cycle between them fails. The other lines are in dependency
     * order and name only nodes above them, which keeps the rules themselves free of cycles.
     */
    static final String RULES = """
            internal.cells    -> net.openhft
            internal.hashing  -> net.openhft
            internal.math     ->
            internal.access   ->
            values            -> internal.math internal.hashing net.openhft
            internal.format   -> values internal.cells internal.hashing net.openhft
            internal.files    -> values internal.cells internal.format net.openhft
            internal.probe    -> values internal.cells internal.hashing internal.math
            internal.bulk     -> values
            internal.parquet  ->
            internal.segment  -> values internal.cells internal.hashing internal.math internal.format internal.files internal.probe net.openhft
            internal.map      -> values internal.cells internal.hashing internal.format internal.files net.openhft
            api               -> values internal.cells internal.hashing internal.math internal.format internal.files internal.probe internal.bulk internal.segment internal.parquet internal.map internal.access net.openhft
            tools             -> api values internal.cells internal.hashing internal.format internal.map internal.access
            server            -> api values tools
            cli               -> api values server tools
            spark             -> api values
            bench.*           -> api values internal.math net.openhft bench.*
            """;

    /**
     * The public types that the internal packages may name: immutable values, their enums and
     * exceptions, and the key hasher. Each depends only on {@code internal.math} and
     * {@code internal.hashing}, so that the public package and the internal ones form no cycle.
     */
    static final Set<String> VALUE_TYPES = Set.of("BloomSpec", "Layout", "HashAlgorithm", "KeyHasher", "ParquetType",
            "InvalidFilterFileException", "CellsCheck", "FilterKind", "FilterFileInfo");

    private static final String ROOT = "io/bloomstore/";
    /** A class named in a descriptor or signature, or as a Class constant (arrays included). */
    private static final Pattern TYPE_NAME = Pattern.compile("L((?:io/bloomstore|net/openhft)/[\\w/$]+)[;<]");

    private Layering() {
    }

    /** The rules as a map from node to the nodes it may use, in the order written. */
    static Map<String, Set<String>> rules() {
        Map<String, Set<String>> rules = new LinkedHashMap<>();
        for (String line : RULES.strip().split("\n")) {
            String[] sides = line.split("->", -1);
            Set<String> allowed = new TreeSet<>(List.of(sides[1].trim().split("\\s+")));
            allowed.remove("");
            rules.put(sides[0].trim(), allowed);
        }
        return rules;
    }

    /**
     * Every dependency of the classes of {@code anyClass}'s module that the rules forbid, and every
     * cycle between its packages, as lines for a failure message; empty when the module keeps to
     * its layers.
     */
    public static List<String> violations(Class<?> anyClass) {
        Map<String, Map<String, Set<String>>> graph = dependencies(classesOf(anyClass));
        if (graph.isEmpty()) {
            throw new IllegalStateException("no class of io.bloomstore found beside " + anyClass.getName());
        }
        Map<String, Set<String>> rules = rules();
        List<String> problems = new ArrayList<>();
        graph.forEach((from, targets) -> {
            Set<String> allowed = allowedFor(rules, from);
            if (allowed == null) {
                problems.add(from + " has no line in Layering.RULES: add one with the packages it may use");
                return;
            }
            targets.forEach((to, classes) -> {
                if (!to.equals(from) && !matchesAny(allowed, to)) {
                    problems.add(from + " may not use " + to + ", but " + classes + " do");
                }
            });
        });
        cycles(graph).forEach(cycle -> problems.add("cycle between packages: " + String.join(" -> ", cycle)));
        return problems;
    }

    /** The node of a class named in internal form, such as {@code io/bloomstore/internal/math/FalsePositiveMath$1}. */
    static String node(String className) {
        if (className.startsWith("net/openhft/")) {
            return "net.openhft";
        }
        String rest = className.substring(ROOT.length());
        int slash = rest.lastIndexOf('/');
        if (slash < 0) {
            String topLevel = rest.replaceFirst("\\$.*", "");
            return VALUE_TYPES.contains(topLevel) ? "values" : "api";
        }
        return rest.substring(0, slash).replace('/', '.');
    }

    /** The node's rule, or else that of {@code x.*} for the nearest package x that contains it; null if none. */
    private static Set<String> allowedFor(Map<String, Set<String>> rules, String node) {
        if (rules.containsKey(node)) {
            return rules.get(node);
        }
        for (String name = node; ; name = name.substring(0, name.lastIndexOf('.'))) {
            if (rules.containsKey(name + ".*")) {
                return rules.get(name + ".*");
            }
            if (name.indexOf('.') < 0) {
                return null;
            }
        }
    }

    private static boolean matchesAny(Set<String> allowed, String node) {
        return allowed.stream().anyMatch(name -> name.equals(node)
                || name.endsWith(".*") && (node + ".").startsWith(name.substring(0, name.length() - 1)));
    }

    /** Node, then each node it uses, with the classes that use it. */
    static Map<String, Map<String, Set<String>>> dependencies(Map<String, byte[]> classFiles) {
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        classFiles.forEach((name, bytes) -> {
            Map<String, Set<String>> uses = graph.computeIfAbsent(node(name), n -> new TreeMap<>());
            for (String used : typesNamedIn(bytes)) {
                uses.computeIfAbsent(node(used), n -> new TreeSet<>()).add(name.substring(ROOT.length()));
            }
        });
        return graph;
    }

    /** Each cycle of the graph between distinct nodes, once, as the path that closes it. */
    static List<List<String>> cycles(Map<String, Map<String, Set<String>>> graph) {
        List<List<String>> cycles = new ArrayList<>();
        Set<String> done = new TreeSet<>();
        for (String start : graph.keySet()) {
            walk(graph, start, new ArrayList<>(), done, cycles);
        }
        return cycles;
    }

    private static void walk(Map<String, Map<String, Set<String>>> graph, String node, List<String> path,
            Set<String> done, List<List<String>> cycles) {
        int seen = path.indexOf(node);
        if (seen >= 0) {
            List<String> cycle = new ArrayList<>(path.subList(seen, path.size()));
            cycle.add(node);
            cycles.add(cycle);
            return;
        }
        if (done.contains(node)) {
            return;
        }
        path.add(node);
        for (String next : graph.getOrDefault(node, Map.of()).keySet()) {
            if (!next.equals(node)) {
                walk(graph, next, path, done, cycles);
            }
        }
        path.remove(path.size() - 1);
        done.add(node);
    }

    /** The class files under io/bloomstore of the directory or jar {@code anyClass} was loaded from, by internal name. */
    private static Map<String, byte[]> classesOf(Class<?> anyClass) {
        Path root;
        try {
            root = Path.of(anyClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Map<String, byte[]> classes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root.resolve(ROOT))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class") && !f.endsWith("package-info.class"))::iterator) {
                String name = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                classes.put(name.substring(0, name.length() - ".class".length()), Files.readAllBytes(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return classes;
    }

    /** The io.bloomstore and net.openhft types the class file names, in internal form. */
    static Set<String> typesNamedIn(byte[] classFile) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
            if (in.readInt() != 0xCAFEBABE) {
                throw new IOException("not a class file");
            }
            in.readUnsignedShort(); // minor version
            in.readUnsignedShort(); // major version
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            List<Integer> classEntries = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF(); // names, descriptors, signatures, string constants
                    case 7 -> classEntries.add(in.readUnsignedShort()); // Class: index of its name
                    case 8, 16, 19, 20 -> in.skipBytes(2); // String, MethodType, Module, Package
                    case 15 -> in.skipBytes(3); // MethodHandle
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4); // Integer, Float, refs, NameAndType, dynamic
                    case 5, 6 -> { // Long, Double take two entries
                        in.skipBytes(8);
                        i++;
                    }
                    default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
                }
            }
            Set<String> types = new TreeSet<>();
            for (int index : classEntries) {
                String name = utf8[index];
                if (name.startsWith(ROOT) || name.startsWith("net/openhft/")) {
                    types.add(name);
                }
                typesIn(name, types);
            }
            for (String text : utf8) {
                if (text != null) {
                    typesIn(text, types);
                }
            }
            return types;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void typesIn(String descriptor, Set<String> types) {
        Matcher m = TYPE_NAME.matcher(descriptor);
        while (m.find()) {
            types.add(m.group(1));
        }
    }
}

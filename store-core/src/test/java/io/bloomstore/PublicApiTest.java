package io.bloomstore;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public API of package {@code io.bloomstore}, listed by reflection and compared with the
 * checked-in {@code src/test/resources/public-api.txt}: every public or protected type, constructor,
 * method and field (with the public methods a public type inherits from a package-private class), one
 * signature a line, sorted, under a header that counts them. A change to the
 * surface then shows in review as a diff of that file, and the file's history lines give its size at
 * earlier points.
 *
 * <p>When the surface changes on purpose, regenerate the file and commit it with the change:
 * {@code mvn -B -ntp -o -pl store-core -Dtest=PublicApiTest -Dpublic-api.update=true verify}
 * (or run {@link #main}). Its lines that begin {@code "# at "} are history and kept as they are.
 */
class PublicApiTest {
    static final Path LISTING = Path.of("src", "test", "resources", "public-api.txt");
    /** The package's overview, which introduces every public type by what a user does with it. */
    static final Path OVERVIEW = Path.of("src", "main", "java", "io", "bloomstore", "package-info.java");
    private static final String UPDATE = "public-api.update";
    private static final String HISTORY = "# at ";
    private static final String PACKAGE = "io.bloomstore";

    @Test
    void theListingMatchesTheCompiledApi() throws IOException {
        String expected = listing(history());
        if (Boolean.getBoolean(UPDATE)) {
            Files.writeString(LISTING, expected, StandardCharsets.UTF_8);
            return;
        }
        String actual = Files.exists(LISTING) ? Files.readString(LISTING, StandardCharsets.UTF_8) : "";
        if (!actual.equals(expected)) {
            fail("the public API of io.bloomstore differs from " + LISTING + " (- listed, + compiled):\n"
                    + diff(actual.lines().toList(), expected.lines().toList())
                    + "if the change is meant, regenerate the listing and commit it: mvn -B -ntp -o -pl store-core"
                    + " -Dtest=PublicApiTest -D" + UPDATE + "=true verify");
        }
    }

    @Test
    void everyPublicTypeIsIntroducedInThePackageOverview() throws IOException {
        String overview = Files.readString(OVERVIEW, StandardCharsets.UTF_8);
        List<String> missing = publicTypes().stream()
                .filter(t -> t.getEnclosingClass() == null)
                .map(Class::getName)
                .filter(name -> !overview.contains("{@link " + name + "}") && !overview.contains("{@link " + name + "#"))
                .toList();
        if (!missing.isEmpty()) {
            fail("public types that " + OVERVIEW + " does not introduce: " + missing + "; say there, with a {@link},"
                    + " what a user does with each, or make it package-private");
        }
    }

    /** Rewrites the listing from the classes on the class path; run from the store-core directory. */
    public static void main(String[] args) throws IOException {
        Files.writeString(LISTING, listing(history()), StandardCharsets.UTF_8);
    }

    /** The whole file: header, counts, kept history, then each type and its members. */
    static String listing(List<String> history) {
        List<Class<?>> types = publicTypes();
        long topLevel = types.stream().filter(t -> t.getEnclosingClass() == null).count();
        List<String> body = new ArrayList<>();
        int constructors = 0;
        int methods = 0;
        int fields = 0;
        for (Class<?> type : types) {
            body.add(describe(type));
            TreeSet<String> members = new TreeSet<>();
            for (Constructor<?> c : type.getDeclaredConstructors()) {
                if (visible(c) && !c.isSynthetic()) {
                    members.add("  " + c.toGenericString());
                    constructors++;
                }
            }
            for (Method m : type.getDeclaredMethods()) {
                if (visible(m) && !m.isSynthetic() && !m.isBridge()) {
                    members.add("  " + m.toGenericString());
                    methods++;
                }
            }
            // A public method of a package-private superclass is callable on the public type, so it is part of the API.
            for (Method m : type.getMethods()) {
                Class<?> from = m.getDeclaringClass();
                if (from != type && !Modifier.isPublic(from.getModifiers()) && from.getPackageName().equals(PACKAGE)) {
                    members.add("  " + m.toGenericString());
                    methods++;
                }
            }
            for (Field f : type.getDeclaredFields()) {
                if (visible(f) && !f.isSynthetic()) {
                    members.add("  " + f.toGenericString());
                    fields++;
                }
            }
            body.addAll(members);
        }
        List<String> lines = new ArrayList<>();
        lines.add("# The public API of package io.bloomstore: every public or protected type, constructor, method and");
        lines.add("# field, by reflection (PublicApiTest). Regenerate it when the surface changes on purpose:");
        lines.add("#   mvn -B -ntp -o -pl store-core -Dtest=PublicApiTest -D" + UPDATE + "=true verify");
        lines.add("# now: " + counts(topLevel, types.size() - topLevel, constructors, methods, fields));
        lines.addAll(history);
        lines.addAll(body);
        return lines.stream().collect(Collectors.joining("\n", "", "\n"));
    }

    static String counts(long topLevel, long nested, int constructors, int methods, int fields) {
        return topLevel + " top-level types, " + nested + " nested types, " + constructors + " constructors, "
                + methods + " methods, " + fields + " fields";
    }

    /** The header lines of the checked-in file that record the surface at earlier commits. */
    private static List<String> history() throws IOException {
        if (!Files.exists(LISTING)) {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(LISTING, StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.startsWith(HISTORY)).toList();
        }
    }

    /** The public top-level types of the package and, depth first, their public or protected nested types, by name. */
    static List<Class<?>> publicTypes() {
        List<Class<?>> found = new ArrayList<>();
        for (String name : classNamesOfThePackage()) {
            Class<?> type;
            try {
                type = Class.forName(PACKAGE + "." + name, false, PublicApiTest.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            if (Modifier.isPublic(type.getModifiers())) {
                addWithNested(type, found);
            }
        }
        found.sort(Comparator.comparing(Class::getName));
        return found;
    }

    private static void addWithNested(Class<?> type, List<Class<?>> found) {
        found.add(type);
        for (Class<?> nested : type.getDeclaredClasses()) {
            if (visible(nested.getModifiers())) {
                addWithNested(nested, found);
            }
        }
    }

    /** The top-level classes compiled into the directory that holds the main classes of io.bloomstore. */
    private static List<String> classNamesOfThePackage() {
        Path dir;
        try {
            dir = Path.of(BloomFilter.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .resolve("io").resolve("bloomstore");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".class") && !n.contains("$") && !n.equals("package-info.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A type's line: its modifiers, kind, name, and what it extends and implements. */
    private static String describe(Class<?> type) {
        // Written out rather than Class.toGenericString, whose form differs between JDK releases.
        int modifiers = type.getModifiers() & Modifier.classModifiers() & ~(type.isInterface() ? Modifier.ABSTRACT : 0);
        String kind = type.isAnnotation() ? "@interface" : type.isInterface() ? "interface"
                : type.isEnum() ? "enum" : type.isRecord() ? "record" : "class";
        StringBuilder line = new StringBuilder(Modifier.toString(modifiers)).append(' ').append(kind).append(' ')
                .append(type.getName());
        if (type.getTypeParameters().length > 0) {
            line.append(Arrays.stream(type.getTypeParameters()).map(java.lang.reflect.Type::getTypeName)
                    .collect(Collectors.joining(",", "<", ">")));
        }
        Class<?> superclass = type.getSuperclass();
        if (superclass != null && superclass != Object.class && !type.isEnum() && !type.isRecord()) {
            line.append(" extends ").append(type.getGenericSuperclass().getTypeName());
        }
        if (type.getGenericInterfaces().length > 0) {
            line.append(type.isInterface() ? " extends " : " implements ").append(Arrays.stream(type.getGenericInterfaces())
                    .map(java.lang.reflect.Type::getTypeName).collect(Collectors.joining(", ")));
        }
        if (type.isSealed()) {
            line.append(" permits ").append(Arrays.stream(type.getPermittedSubclasses())
                    .map(Class::getName).collect(Collectors.joining(", ")));
        }
        return line.toString();
    }

    private static boolean visible(Member member) {
        return visible(member.getModifiers());
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    /** The lines of {@code listed} missing from {@code compiled} (-), then those of {@code compiled} missing from {@code listed} (+), in file order. */
    private static String diff(List<String> listed, List<String> compiled) {
        StringBuilder out = new StringBuilder();
        TreeSet<String> inCompiled = new TreeSet<>(compiled);
        TreeSet<String> inListed = new TreeSet<>(listed);
        listed.stream().filter(l -> !inCompiled.contains(l)).forEach(l -> out.append("- ").append(l).append('\n'));
        compiled.stream().filter(l -> !inListed.contains(l)).forEach(l -> out.append("+ ").append(l).append('\n'));
        return out.toString();
    }
}

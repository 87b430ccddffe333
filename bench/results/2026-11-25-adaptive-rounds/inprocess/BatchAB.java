import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * Two builds of bloomstore in one JVM, each in its own class loader, querying the same mapped
 * fixture in turn: an A/B of the batch query free of the drift between JMH runs.
 * java BatchAB JAR_A JAR_B FIXTURE N ROUNDS
 */
public class BatchAB {
    public static void main(String[] a) throws Exception {
        Path fixture = Path.of(a[2]);
        long n = Long.parseLong(a[3]);
        int rounds = Integer.parseInt(a[4]);
        String[] names = {Path.of(a[0]).getFileName().toString(), Path.of(a[1]).getFileName().toString()};
        Object[] filters = new Object[2];
        Method[] query = new Method[2];
        Method longKey = null, mix = null;
        long absentBase = 0;
        for (int s = 0; s < 2; s++) {
            URLClassLoader loader = new URLClassLoader(new URL[] {Path.of(a[s]).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Class<?> bf = loader.loadClass("io.bloomstore.BloomFilter");
            @SuppressWarnings({"unchecked", "rawtypes"})
            Class<Enum> om = (Class<Enum>) loader.loadClass("io.bloomstore.OpenMode");
            filters[s] = bf.getMethod("open", Path.class, om).invoke(null, fixture, Enum.valueOf(om, "READ_ONLY"));
            query[s] = bf.getMethod("mightContainAll", long[].class, boolean[].class);
            if (s == 0) {
                Class<?> keys = loader.loadClass("io.bloomstore.bench.Keys");
                longKey = keys.getMethod("longKey", long.class);
                mix = keys.getMethod("mix", long.class);
                absentBase = keys.getField("ABSENT_BASE").getLong(null);
            }
        }
        int keysPerSet = 4_000_000, chunk = 1000;
        long[][] sets = new long[3][keysPerSet];
        String[] setNames = {"present", "absent", "mixed"};
        long stride = n / keysPerSet;
        for (int i = 0; i < keysPerSet; i++) {
            long index = i * stride;
            sets[0][i] = (long) longKey.invoke(null, index);
            sets[1][i] = (long) longKey.invoke(null, absentBase + index);
            sets[2][i] = ((long) mix.invoke(null, index) & 1) == 0 ? sets[0][i] : sets[1][i];
        }
        boolean[] answers = new boolean[chunk];
        long[] batch = new long[chunk];
        for (int round = 0; round < rounds; round++) {
            StringBuilder line = new StringBuilder("round " + round);
            for (int set = 0; set < 3; set++) {
                double[] ns = new double[2];
                long[] found = new long[2];
                for (int turn = 0; turn < 2; turn++) {
                    int s = (round + turn) % 2; // who goes first alternates
                    long t0 = System.nanoTime();
                    for (int from = 0; from < keysPerSet; from += chunk) {
                        System.arraycopy(sets[set], from, batch, 0, chunk);
                        found[s] += (int) query[s].invoke(filters[s], batch, answers);
                    }
                    ns[s] = (System.nanoTime() - t0) / (double) keysPerSet;
                }
                if (found[0] != found[1]) throw new AssertionError("answers differ: " + found[0] + " " + found[1]);
                line.append(String.format(" | %s %s %.1f %s %.1f ratio %.3f", setNames[set], names[0], ns[0], names[1], ns[1], ns[1] / ns[0]));
            }
            System.out.println(line);
        }
    }
}

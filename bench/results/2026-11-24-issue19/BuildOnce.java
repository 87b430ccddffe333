import io.bloomstore.*;
import java.nio.file.*;
public class BuildOnce {
    public static void main(String[] a) throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(Long.parseLong(a[2])).hashes(Integer.parseInt(a[3])).layout(Layout.valueOf(a[4])).build();
        long t0 = System.nanoTime();
        FilterBuilder.Built b = FilterBuilder.to(Path.of(a[1])).spec(spec).replaceExisting(true).threads(Integer.parseInt(a[5])).inMemory(Boolean.parseBoolean(a[6])).fromLines(Path.of(a[0]));
        System.out.println("keys " + b.keys() + " ms " + (System.nanoTime() - t0) / 1e6);
    }
}

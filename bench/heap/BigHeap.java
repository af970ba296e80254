import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a heap of about N million small objects (maps, lists, strings, arrays, a linked chain) and dumps it:
 * the scale test of the HPROF reader (docs/heap.md, "Measured"). Usage: java -Xmx4g BigHeap.java OUT.hprof [millions, e.g. 5 or 0.5]
 */
public class BigHeap {
    static final Map<String, List<Item>> INDEX = new HashMap<>();
    static Item chain;

    static final class Item {
        final long id;
        final String name;
        final int[] values;
        Item next;

        Item(long id) {
            this.id = id;
            this.name = "item-" + id;
            this.values = new int[(int) (id % 7)];
        }
    }

    public static void main(String[] args) throws Exception {
        double millions = args.length > 1 ? Double.parseDouble(args[1]) : 4;
        for (long i = 0; i < (long) (millions * 1_000_000); i++) {
            Item it = new Item(i);
            INDEX.computeIfAbsent("k" + (i % 100_000), k -> new ArrayList<>()).add(it);
            if (i % 3 == 0) { it.next = chain; chain = it; }
        }
        ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class).dumpHeap(args[0], true);
        System.out.println("BigHeap: " + INDEX.size() + " keys");
    }
}

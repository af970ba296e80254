package demo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * HeapLens live demo: keeps allocating for a few seconds (default 8, or the first argument) so that the
 * live view has something to show: a word index rebuilt four times a second, with a line of output each second.
 */
public final class LiveDemo {
    public static void main(String[] args) throws InterruptedException {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        System.out.println("LiveDemo: allocating for " + seconds + " s");
        long total = 0;
        for (int s = 1; s <= seconds; s++) {
            int distinct = 0;
            for (int q = 0; q < 4; q++) {
                Map<String, Integer> counts = index(WordIndex.tokenize(WordIndex.generateText(5_000, s * 31L + q)));
                distinct = counts.size();
                total += counts.values().stream().mapToInt(Integer::intValue).sum();
                Thread.sleep(250);
            }
            System.out.println("LiveDemo: second " + s + ", " + distinct + " distinct words, " + total + " words so far");
        }
        System.out.println("LiveDemo: done");
    }

    static Map<String, Integer> index(List<String> words) {
        Map<String, Integer> counts = new HashMap<>();
        List<String> longWords = new ArrayList<>();
        for (String w : words) {
            counts.merge(w, 1, Integer::sum);
            if (w.length() > 6) longWords.add(w.toUpperCase());
        }
        return counts;
    }
}

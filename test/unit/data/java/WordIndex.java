package demo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * HeapLens demo: builds a word index over text it generates itself (deterministic, no files).
 * Allocation hot spots on purpose: StringBuilder/String in the tokenizer, Integer boxing in the
 * HashMap counts, ArrayList growth, a small 2-D int matrix, and two worker threads.
 */
public final class WordIndex {
    private static final String[] SYLLABLES = {"ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "an", "el"};

    /** One word with its count, sorted by count then text. */
    static final class Entry implements Comparable<Entry> {
        final String word;
        final int count;

        Entry(String word, int count) {
            this.word = word;
            this.count = count;
        }

        @Override
        public int compareTo(Entry o) {
            return count != o.count ? Integer.compare(o.count, count) : word.compareTo(o.word);
        }
    }

    /** Generates a deterministic pseudo-text of `words` words (linear congruential generator). */
    static String generateText(int words, long seed) {
        StringBuilder text = new StringBuilder();
        long x = seed;
        for (int i = 0; i < words; i++) {
            x = (x * 6364136223846793005L + 1442695040888963407L);
            int syllables = 1 + (int) ((x >>> 60) & 3);
            for (int s = 0; s < syllables; s++) {
                text.append(SYLLABLES[(int) ((x >>> (8 * s + 8)) & 0xff) % SYLLABLES.length]);
            }
            text.append(i % 17 == 16 ? ".\n" : " ");
        }
        return text.toString();
    }

    /** Splits text into lower-case words. */
    static List<String> tokenize(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isLetter(c)) {
                word.append(Character.toLowerCase(c));
            } else if (word.length() > 0) {
                words.add(word.toString());
                word.setLength(0);
            }
        }
        if (word.length() > 0) {
            words.add(word.toString());
        }
        return words;
    }

    /** Counts words; each count update boxes an Integer. */
    static Map<String, Integer> count(List<String> words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String w : words) {
            counts.merge(w, 1, Integer::sum);
        }
        return counts;
    }

    static List<Entry> top(Map<String, Integer> counts, int n) {
        List<Entry> entries = new ArrayList<>();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            entries.add(new Entry(e.getKey(), e.getValue()));
        }
        Collections.sort(entries);
        return entries.subList(0, Math.min(n, entries.size()));
    }

    /** Co-occurrence of word lengths in neighbouring words: a small 2-D int matrix. */
    static int[][] lengthPairs(List<String> words) {
        int[][] m = new int[12][12];
        for (int i = 1; i < words.size(); i++) {
            m[Math.min(11, words.get(i - 1).length())][Math.min(11, words.get(i).length())]++;
        }
        return m;
    }

    static Map<String, Integer> indexChunk(long seed) {
        return count(tokenize(generateText(20_000, seed)));
    }

    public static void main(String[] args) throws InterruptedException {
        String text = generateText(40_000, 42);
        List<String> words = tokenize(text);
        Map<String, Integer> counts = count(words);
        int[][] pairs = lengthPairs(words);

        // Two workers index more text in parallel.
        List<Map<String, Integer>> results = Collections.synchronizedList(new ArrayList<>());
        Thread[] workers = new Thread[2];
        for (int t = 0; t < workers.length; t++) {
            final long seed = 1000 + t;
            workers[t] = new Thread(() -> results.add(indexChunk(seed)), "worker-" + t);
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        for (Map<String, Integer> r : results) {
            r.forEach((w, c) -> counts.merge(w, c, Integer::sum));
        }

        System.out.println("words: " + words.size() + ", distinct: " + counts.size());
        for (Entry e : top(counts, 5)) {
            System.out.println("  " + e.word + " " + e.count);
        }
        System.out.println("length pairs 2→2: " + pairs[2][2] + ", 4→4: " + pairs[4][4]);
    }
}

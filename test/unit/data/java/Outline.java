package com.acme.shapes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** A fixture for HeapLens's own Java outline: nested types, overloads, constructors, lambdas, anonymous classes. */
public class Outline<T extends Comparable<T>> {
    private final List<T> items = new ArrayList<>();
    private static final Map<String, Integer> CACHE = Map.of();

    static {
        System.out.println("static init");
    }

    public Outline() {
        this(16);
    }

    public Outline(int capacity) {
        items.add(null);
    }

    void add(T item) {
        items.add(item);
    }

    void add(String name, int... counts) {
        Runnable r = () -> System.out.println(name + counts.length);
        r.run();
    }

    void add(Map.Entry<String, Integer>[] entries, long[][] grid) {
        Supplier<String> s = new Supplier<String>() {
            @Override
            public String get() {
                return "anon " + entries.length;
            }
        };
        s.get();
    }

    static <U> List<U> copy(List<? extends U> from) {
        return new ArrayList<U>(from);
    }

    /** A static nested class with its own overloads. */
    static final class Inner {
        final String name;

        Inner(String name) {
            this.name = name;
        }

        String describe() {
            return "inner " + name;
        }

        String describe(Inner other) {
            return describe() + other.describe();
        }

        class Deeper {
            int depth() {
                Runnable r = new Runnable() {
                    public void run() {
                        new StringBuilder().append("deeper");
                    }
                };
                r.run();
                return 2;
            }
        }
    }

    interface Shape {
        double area();

        default String label() {
            return "shape " + area();
        }
    }

    enum Kind {
        CIRCLE, SQUARE;

        Kind() {
            System.out.println("kind");
        }

        String lower() {
            return name().toLowerCase();
        }
    }

    record Point(int x, int y) {
        Point {
            if (x < 0) throw new IllegalArgumentException("x");
        }

        Point scale(int f) {
            return new Point(x * f, y * f);
        }
    }
}

class Helper {
    void help() {
        Object o = new Object() {
            @Override
            public String toString() {
                return "helper";
            }
        };
        o.toString();
    }
}

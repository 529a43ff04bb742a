/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Load times of one index file by the {@code mapped} loaders of two builds of the core (say, the
 * commits before and after a change), each on its own class loader in this JVM, interleaved load by
 * load so that both see the same machine: the paired ratio of each pair, with a 95 % interval. The
 * "after" build's loads run twice, once with the snapshot of the file there and once with the
 * snapshot directory emptied first (the first load of a version on a host).
 *
 * <p>Arguments: the index file, the "before" classpath, the "after" classpath, the number of
 * measured rounds (three more warm up first). Snapshots go to {@code spindex.snapshot.dir} when
 * that is set, else the loader's default, which this tool empties for the first-load rows.
 */
public final class PairedLoadTimes {
  private PairedLoadTimes() {}

  public static void main(String[] args) throws Exception {
    Path index = Paths.get(args[0]);
    Build before = new Build(args[1]);
    Build after = new Build(args[2]);
    int rounds = Integer.parseInt(args[3]);
    Path snapshots =
        System.getProperty("spindex.snapshot.dir") != null
            ? Paths.get(System.getProperty("spindex.snapshot.dir"))
            : Paths.get(
                System.getProperty("java.io.tmpdir"),
                "spindex-snapshots-" + System.getProperty("user.name"));
    String[] rows = {
      "before: mapped",
      "after: mapped, snapshot there",
      "after: mapped, first load",
      "before: mapped-unchecked",
      "after: mapped-unchecked, snapshot there",
      "after: mapped-unchecked, first load"
    };
    double[][] ms = new double[rows.length][rounds];
    for (int r = -3; r < rounds; r++) {
      for (int k = 0; k < rows.length; k++) {
        boolean checked = k < 3;
        Build b = k % 3 == 0 ? before : after;
        if (k % 3 == 2) {
          empty(snapshots);
        }
        System.gc();
        long t0 = System.nanoTime();
        b.load(index, checked);
        long ns = System.nanoTime() - t0;
        if (r >= 0) {
          ms[k][r] = ns / 1e6;
        }
      }
    }
    for (int k = 0; k < rows.length; k++) {
      String ratio = k % 3 == 0 ? "" : "  " + ratio(ms[k], ms[k < 3 ? 0 : 3]) + "x before";
      System.out.printf(
          Locale.ROOT, "%-42s %9.3f ± %.3f ms%s%n", rows[k], mean(ms[k]), half(ms[k]), ratio);
    }
  }

  /** One build's {@code Loader.MAPPED} and {@code Loader.mappedUnchecked()}. */
  private static final class Build {
    final Object mapped;
    final Object unchecked;
    final Method load;

    Build(String classpath) throws Exception {
      List<URL> urls = new ArrayList<>();
      for (String p : classpath.split(java.io.File.pathSeparator)) {
        urls.add(Paths.get(p).toUri().toURL());
      }
      ClassLoader l = new URLClassLoader(urls.toArray(new URL[0]), null);
      String pkg = loadersPackage(l);
      Class<?> loader = l.loadClass(pkg + ".Loader");
      mapped = loader.getField("MAPPED").get(null);
      unchecked = loader.getMethod("mappedUnchecked").invoke(null);
      load = l.loadClass(pkg + ".IndexLoader").getMethod("load", Path.class);
    }

    /** Where a build's loaders are: io.spindex.index.load, or io.spindex.index before 1.0. */
    private static String loadersPackage(ClassLoader l) {
      try {
        l.loadClass("io.spindex.index.load.Loader");
        return "io.spindex.index.load";
      } catch (ClassNotFoundException e) {
        return "io.spindex.index";
      }
    }

    void load(Path index, boolean checked) throws Exception {
      if (load.invoke(checked ? mapped : unchecked, index) == null) {
        throw new IllegalStateException("no index");
      }
    }
  }

  private static void empty(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static String ratio(double[] x, double[] base) {
    double[] q = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      q[i] = x[i] / base[i];
    }
    return String.format(Locale.ROOT, "%.3f ± %.3f", mean(q), half(q));
  }

  private static double mean(double[] x) {
    double s = 0;
    for (double d : x) {
      s += d;
    }
    return s / x.length;
  }

  /** Half-width of a 95 % interval of the mean (normal approximation, n of 20 or more). */
  private static double half(double[] x) {
    double m = mean(x);
    double s = 0;
    for (double d : x) {
      s += (d - m) * (d - m);
    }
    return 1.96 * Math.sqrt(s / (x.length - 1)) / Math.sqrt(x.length);
  }
}

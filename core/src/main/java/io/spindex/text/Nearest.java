/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;

/**
 * The known word nearest to a mistyped one, for messages that refuse a name and say which was
 * probably meant: an unknown setting ({@code spark.spindex.sql.namesOnly}: nearest {@code
 * spark.spindex.sql.names-only}), an unknown key of an update configuration, an option a command
 * does not take. Nearest is the smallest Levenshtein distance (insertions, deletions and
 * substitutions of one character, each costing 1); of several as near, the first in the order
 * given.
 */
@Internal
public final class Nearest {
  private Nearest() {}

  /** The word of {@code known} nearest to {@code word}, or null when {@code known} is empty. */
  public static String of(String word, Iterable<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(word, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /** The Levenshtein distance between {@code a} and {@code b}, in characters (UTF-16 units). */
  public static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}

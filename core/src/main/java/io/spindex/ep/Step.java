/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.ep.feed.EpRow;
import io.spindex.ep.feed.Verdict;
import java.io.IOException;

/**
 * One step of a transform spec as parsed (validated as far as it can be without a header). {@link
 * #compile} checks it against the columns of an input and returns what runs per row, or {@code
 * null} for steps that only change the columns (rename, drop, select, reorder): those cost nothing
 * per row. Immutable.
 */
abstract class Step {
  /** 1-based position in the spec. */
  final int number;

  /** The step's kind as written in the spec: {@code rename}, {@code normalize} ... */
  final String kind;

  /** {@code FILE:LINE: step N (kind)}, the prefix of every message about this step. */
  final String where;

  Step(int number, String kind, String origin) {
    this.number = number;
    this.kind = kind;
    this.where = origin + ": step " + number + " (" + kind + ")";
  }

  /** Name of the step in counts: {@code 3:normalize}. */
  String label() {
    return number + ":" + kind;
  }

  abstract RowStep compile(Schema schema) throws IOException;

  /** What a row step does to one row. */
  abstract static class RowStep {
    static final int UNCHANGED = 0;
    static final int CHANGED = 1;
    static final int REJECTED = Verdict.REJECTED;

    final String label;

    /** Position of the step in the spec (0-based): its counts' index. */
    int position;

    RowStep(String label) {
      this.label = label;
    }

    /**
     * Applies the step to {@code row}.
     *
     * @return {@link #UNCHANGED}, {@link #CHANGED}, or {@link #REJECTED} after calling {@link
     *     Verdict#reject} on {@code verdict}
     */
    abstract int apply(EpRow row, Verdict verdict);

    /** The slots whose {@link EpRow#isClean} the step reads (bit {@code s}: slot {@code s}). */
    long cleanSlots() {
      return 0;
    }
  }
}

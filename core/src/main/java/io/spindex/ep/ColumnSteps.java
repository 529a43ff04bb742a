/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The steps that change columns, not values: rename, drop, select, reorder. */
final class ColumnSteps {
  private ColumnSteps() {}

  /** {@code { rename { old = new, ... } }}: renames, applied in the order written. */
  static final class Rename extends Step {
    private final Map<String, String> pairs;

    Rename(int number, String origin, Map<String, String> pairs) {
      super(number, "rename", origin);
      this.pairs = new LinkedHashMap<>(pairs);
    }

    @Override
    RowStep compile(Schema s) {
      pairs.forEach((from, to) -> s.rename(from, to, where));
      return null;
    }
  }

  /** {@code { drop = [a, b] }}: leaves these columns out of the output. */
  static final class Drop extends Step {
    private final List<String> names;

    Drop(int number, String origin, List<String> names) {
      super(number, "drop", origin);
      this.names = new ArrayList<>(names);
    }

    @Override
    RowStep compile(Schema s) {
      for (String n : names) {
        s.drop(n, where);
      }
      return null;
    }
  }

  /** {@code { select = [a, b] }}: exactly these columns, in this order. */
  static final class Select extends Step {
    private final List<String> names;

    Select(int number, String origin, List<String> names) {
      super(number, "select", origin);
      this.names = new ArrayList<>(names);
    }

    @Override
    RowStep compile(Schema s) {
      s.select(names, where);
      return null;
    }
  }

  /** {@code { reorder = [a, b] }}: these first, in this order; the others after, as they were. */
  static final class Reorder extends Step {
    private final List<String> names;

    Reorder(int number, String origin, List<String> names) {
      super(number, "reorder", origin);
      this.names = new ArrayList<>(names);
    }

    @Override
    RowStep compile(Schema s) {
      s.reorder(names, where);
      return null;
    }
  }
}

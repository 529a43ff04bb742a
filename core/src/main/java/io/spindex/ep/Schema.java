/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.ep.feed.EpHeader;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns as a transform sees them between steps while it is compiled: names in output order,
 * each bound to a slot of {@link EpRow}. Renames change names, not slots; drops and selects remove
 * columns from the output, not slots; steps that add a column take a new slot. Not thread-safe;
 * used only while compiling.
 */
final class Schema {
  private final List<String> names = new ArrayList<>();
  private final List<Integer> slots = new ArrayList<>();
  private int slotCount;

  Schema(EpHeader input) {
    for (String n : input.names()) {
      names.add(n);
      slots.add(slotCount++);
    }
  }

  int slotCount() {
    return slotCount;
  }

  boolean has(String name) {
    return names.contains(name);
  }

  /** The slot of column {@code name}; {@code where} prefixes the message when it is missing. */
  int slot(String name, String where) {
    int i = names.indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException(
          where
              + ": no field '"
              + name
              + "' at this step (fields: "
              + String.join(", ", names)
              + ")");
    }
    return slots.get(i);
  }

  /** The slot of {@code name}, adding it as a new last column when absent. */
  int slotOrAdd(String name) {
    int i = names.indexOf(name);
    if (i >= 0) {
      return slots.get(i);
    }
    names.add(name);
    slots.add(slotCount);
    return slotCount++;
  }

  void rename(String from, String to, String where) {
    int i = names.indexOf(from);
    if (i < 0) {
      slot(from, where);
    }
    if (names.contains(to) && !from.equals(to)) {
      throw new IllegalArgumentException(
          where + ": cannot rename '" + from + "' to '" + to + "': that field exists");
    }
    names.set(i, to);
  }

  void drop(String name, String where) {
    slot(name, where);
    int i = names.indexOf(name);
    names.remove(i);
    slots.remove(i);
  }

  /** Keeps exactly {@code keep}, in that order ({@code select}). */
  void select(List<String> keep, String where) {
    List<Integer> s = new ArrayList<>();
    for (String n : keep) {
      s.add(slot(n, where));
    }
    names.clear();
    names.addAll(keep);
    slots.clear();
    slots.addAll(s);
  }

  /** Puts {@code first} first, in that order, the others after them in their order. */
  void reorder(List<String> first, String where) {
    List<String> n = new ArrayList<>(first);
    for (String x : first) {
      slot(x, where);
    }
    for (String x : names) {
      if (!first.contains(x)) {
        n.add(x);
      }
    }
    List<Integer> s = new ArrayList<>();
    for (String x : n) {
      s.add(slots.get(names.indexOf(x)));
    }
    names.clear();
    names.addAll(n);
    slots.clear();
    slots.addAll(s);
  }

  List<String> names() {
    return new ArrayList<>(names);
  }

  int[] outputSlots() {
    int[] out = new int[slots.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = slots.get(i);
    }
    return out;
  }
}

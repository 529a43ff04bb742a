/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import scala.collection.immutable.List;
import scala.collection.immutable.Nil$;

/**
 * Scala collections made from Java in a way that compiles for Scala 2.12 and 2.13 alike: an
 * immutable {@code List} is both 2.12's {@code scala.collection.Seq} and 2.13's {@code
 * scala.collection.immutable.Seq}, and {@code ::} has the same signature in both, where the
 * converters ({@code JavaConverters} vs {@code CollectionConverters}) do not.
 */
final class Scala {
  private Scala() {}

  /** An immutable Scala list of the items, in order. */
  @SafeVarargs
  @SuppressWarnings("unchecked")
  static <T> List<T> list(T... items) {
    List<T> l = (List<T>) (Object) Nil$.MODULE$;
    for (int i = items.length - 1; i >= 0; i--) {
      l = l.$colon$colon(items[i]);
    }
    return l;
  }
}

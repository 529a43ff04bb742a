/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.execution.SparkPlan;
import scala.Option;

/**
 * A physical operator of one child, for Scala 2.13: the signatures that differ between Scala 2.12
 * and 2.13 ({@code children}, {@code output} and {@code vectorTypes} return {@code
 * scala.collection.immutable.Seq}, {@code withNewChildrenInternal} takes {@code
 * scala.collection.immutable.IndexedSeq}).
 */
abstract class ExecBase extends SparkPlan {
  private static final long serialVersionUID = 1L;

  /** The child. */
  abstract SparkPlan child();

  /** This operator over another child. */
  abstract SparkPlan withNewChild(SparkPlan child);

  /** The output columns. */
  abstract Attribute[] outputColumns();

  /** The class of each output column vector, or {@code null} when not known. */
  abstract String[] outputVectorTypes();

  /** The classes of the child's column vectors, as its {@code vectorTypes}, or {@code null}. */
  static String[] vectorTypes(SparkPlan plan) {
    Option<scala.collection.immutable.Seq<String>> t = plan.vectorTypes();
    if (t.isEmpty()) {
      return null;
    }
    scala.collection.immutable.Seq<String> s = t.get();
    String[] a = new String[s.length()];
    for (int i = 0; i < a.length; i++) {
      a[i] = s.apply(i);
    }
    return a;
  }

  @Override
  public final scala.collection.immutable.Seq<SparkPlan> children() {
    return Scala.list(child());
  }

  @Override
  public final SparkPlan withNewChildrenInternal(
      scala.collection.immutable.IndexedSeq<SparkPlan> children) {
    return withNewChild(children.apply(0));
  }

  @Override
  public final scala.collection.immutable.Seq<Attribute> output() {
    return Scala.list(outputColumns());
  }

  @Override
  public final Option<scala.collection.immutable.Seq<String>> vectorTypes() {
    String[] t = outputVectorTypes();
    return t == null
        ? Option.<scala.collection.immutable.Seq<String>>empty()
        : Option.<scala.collection.immutable.Seq<String>>apply(Scala.list(t));
  }
}

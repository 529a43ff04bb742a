/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import org.apache.spark.sql.catalyst.expressions.Expression;

/**
 * A Catalyst expression of one child, for Scala 2.12: the one signature that differs between Scala
 * 2.12 and 2.13 ({@code withNewChildrenInternal} takes {@code scala.collection.IndexedSeq}).
 * Spark's own {@code UnaryExpression} cannot serve from Java: its forwarder of that method is final
 * and erased, so javac does not see the abstract method implemented.
 */
abstract class ExpressionBase extends Expression {
  private static final long serialVersionUID = 1L;

  /** The child. */
  abstract Expression child();

  /** This expression over another child. */
  abstract Expression withNewChild(Expression child);

  @Override
  public final scala.collection.immutable.Seq<Expression> children() {
    return Scala.list(child());
  }

  @Override
  public final Expression withNewChildrenInternal(
      scala.collection.IndexedSeq<Expression> children) {
    return withNewChild(children.apply(0));
  }
}

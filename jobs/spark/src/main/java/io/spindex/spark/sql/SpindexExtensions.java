/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import scala.Function1;
import scala.Tuple3;
import scala.collection.Seq;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Registers the Spindex SQL functions in every session: {@code --conf
 * spark.sql.extensions=io.spindex.spark.sql.SpindexExtensions} (with the job jar given to {@code
 * --jars}); works for {@code spark-sql}, {@code spark-submit}, PySpark and the Thrift server.
 */
public final class SpindexExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    for (Tuple3<FunctionIdentifier, ExpressionInfo, Function1<Seq<Expression>, Expression>> f :
        SpindexFunctions.all()) {
      extensions.injectFunction(f);
    }
    return BoxedUnit.UNIT;
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.spark.line.SparkLine;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.execution.ColumnarRule;
import scala.Tuple3;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Registers the Spindex SQL functions in every session, and the rule that runs their lookups a
 * batch at a time over columnar tables ({@link SpindexColumnarRule}): {@code --conf
 * spark.sql.extensions=io.spindex.spark.sql.SpindexExtensions} (with the job jar given to {@code
 * --jars}); works for {@code spark-sql}, {@code spark-submit}, PySpark, the Thrift server and a
 * Spark Connect server. A jar built for another Spark line fails here, in one line naming the
 * versions and the artifact to use.
 */
public final class SpindexExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    SparkLine.check();
    SparkErrors.register(); // Spindex's error conditions, known to Spark and PySpark
    for (SpindexFunctions.Entry f : SpindexFunctions.all()) {
      // The builder's Scala type differs between Scala 2.12 and 2.13 (scala.Seq); erased, it is
      // a Function1 of the Seq that both pass.
      extensions.injectFunction((Tuple3) new Tuple3<>(f.name, f.info, f.builder));
    }
    extensions.injectColumnar(
        new AbstractFunction1<SparkSession, ColumnarRule>() {
          @Override
          public ColumnarRule apply(SparkSession session) {
            return new SpindexColumnarRule();
          }
        });
    return BoxedUnit.UNIT;
  }
}

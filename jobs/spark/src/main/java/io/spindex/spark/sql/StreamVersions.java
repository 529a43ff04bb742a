/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.spark.side.SparkSides;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.execution.SparkPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.runtime.AbstractPartialFunction;

/**
 * The version each micro-batch of a Structured Streaming query answers from. A query's functions
 * are resolved once, when the query is analysed, pinned to the version each index was then; a
 * stream is planned again for every micro-batch, and this moves its functions to the version each
 * index is when the batch is planned: every function of one batch over one index at one version (no
 * batch mixes two), the first batch planned after a rename at the new one. Batch queries keep the
 * version of their analysis (a new query sees a new one). Applied by {@link SpindexColumnarRule} to
 * every physical plan, before the batch operator; it acts only when Spark plans a micro-batch (the
 * local properties of the stream's thread say which query and batch).
 */
final class StreamVersions {
  private static final Logger LOG = LoggerFactory.getLogger(StreamVersions.class);

  /** Spark's local properties of a stream's thread ({@code MicroBatchExecution}). */
  static final String BATCH_ID = "streaming.sql.batchId";

  static final String QUERY_ID = "sql.streaming.queryId";

  /** The versions chosen for the last batch planned of each query (a few queries at most). */
  private static final Map<String, Chosen> CHOSEN =
      new LinkedHashMap<String, Chosen>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Chosen> e) {
          return size() > 64;
        }
      };

  private static final class Chosen {
    final String batch;
    final Map<String, SparkSides.Resolved> versions = new HashMap<>();

    Chosen(String batch) {
      this.batch = batch;
    }
  }

  private StreamVersions() {}

  /** {@code plan} with its functions at this micro-batch's versions; as it is outside a stream. */
  static SparkPlan atBatch(SparkPlan plan) {
    SparkSession spark = SparkSession.active();
    SparkContext sc = spark.sparkContext();
    String batch = sc.getLocalProperty(BATCH_ID);
    String query = sc.getLocalProperty(QUERY_ID);
    if (batch == null || query == null) {
      return plan;
    }
    Chosen chosen;
    synchronized (CHOSEN) {
      chosen = CHOSEN.get(query);
      if (chosen == null || !chosen.batch.equals(batch)) {
        chosen = new Chosen(batch);
        CHOSEN.put(query, chosen);
      }
    }
    Chosen c = chosen;
    return plan.transformAllExpressions(
        new AbstractPartialFunction<Expression, Expression>() {
          @Override
          public boolean isDefinedAt(Expression e) {
            return e instanceof SpindexExpression
                && ((SpindexExpression) e).target() instanceof IndexRef;
          }

          @Override
          public Expression apply(Expression e) {
            SpindexExpression s = (SpindexExpression) e;
            IndexRef ref = (IndexRef) s.target();
            IndexRef now;
            synchronized (c) {
              now = ref.current(spark, c.versions, LOG::warn);
            }
            if (now == ref) {
              return s;
            }
            LOG.info(
                String.format(
                    "%s: micro-batch %s of query %s answers from version %08x (was %08x)",
                    ref.given(), batch, query, now.headerCrc(), ref.headerCrc()));
            return s.withTarget(now);
          }
        });
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.spark.side.SpindexConf;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.ColumnarRule;
import org.apache.spark.sql.execution.FilterExec;
import org.apache.spark.sql.execution.ProjectExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.internal.SQLConf;
import scala.collection.Seq;

/**
 * Moves a micro-batch's functions to the versions of its indexes it answers from ({@link
 * StreamVersions}), then puts {@link SpindexBatchExec} in place of each projection it can run, and
 * under each filter whose condition holds lookups it can run, before Spark adds the transitions
 * between rows and batches (so that it reads its child's batches and Spark reads its own into
 * rows). Off with {@code spark.spindex.sql.batch=false}; registered by {@link SpindexExtensions}.
 */
final class SpindexColumnarRule extends ColumnarRule {
  private static final Rule<SparkPlan> BATCHES =
      new Rule<SparkPlan>() {
        @Override
        public SparkPlan apply(SparkPlan plan) {
          SparkPlan p = StreamVersions.atBatch(plan);
          return SQLConf.get().getConfString(SpindexConf.BATCH, "true").equals("false")
              ? p
              : rewrite(p);
        }
      };

  @Override
  public Rule<SparkPlan> preColumnarTransitions() {
    return BATCHES;
  }

  /** The plan with every projection it can take replaced, from the leaves up. */
  static SparkPlan rewrite(SparkPlan plan) {
    Seq<SparkPlan> children = plan.children();
    SparkPlan[] rewritten = new SparkPlan[children.length()];
    boolean changed = false;
    for (int i = 0; i < rewritten.length; i++) {
      rewritten[i] = rewrite(children.apply(i));
      changed |= rewritten[i] != children.apply(i);
    }
    SparkPlan p = changed ? plan.withNewChildren(Scala.list(rewritten)) : plan;
    if (p instanceof FilterExec) {
      SparkPlan b = SpindexBatchExec.filtering(((FilterExec) p).condition(), p.children().apply(0));
      if (b != null) {
        return b;
      }
    }
    if (p instanceof ProjectExec) {
      ProjectExec project = (ProjectExec) p;
      SparkPlan b = SpindexBatchExec.replacing(project.projectList(), project.child());
      if (b == null) {
        b = SpindexBatchExec.under(project.projectList(), project.child());
      }
      if (b != null) {
        return b;
      }
    }
    return p;
  }
}

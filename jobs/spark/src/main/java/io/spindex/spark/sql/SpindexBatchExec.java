/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.annotations.Internal;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ConditionalExpression;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GetStructField;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.execution.FilterExec;
import org.apache.spark.sql.execution.ProjectExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.execution.metric.SQLMetrics;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.Option;
import scala.collection.Seq;

/**
 * A projection of columns and Spindex lookups over a columnar child (a Parquet or ORC scan, a
 * cached table): it replaces Spark's {@code ProjectExec} there ({@link SpindexColumnarRule}) and
 * runs the lookups a batch at a time, where the expression runs them a row at a time. Its output is
 * columnar too: the child's vectors of the columns it passes on, and for each lookup a vector of
 * views of the labels' bytes ({@link LabelVector}, {@link LabelFieldVector}); Spark reads them into
 * rows after it ({@code ColumnarToRowExec}), in the generated code of the next operators.
 *
 * <p>What it takes: a list of which every item is a column of the child (renamed or not), {@code
 * spindex_label}, {@code spindex_lookup} or {@code spindex_contains} (or their {@code try_} twins)
 * of a column of the child, or a field of {@code spindex_lookup}; several items of one lookup share
 * it. A projection that holds such lookups among other expressions becomes this operator, for the
 * lookups, under a projection of the rest ({@link #under}); a filter, under a filter of the rest
 * ({@link #filtering}). The answers, the counts of NULL and unparseable addresses and the errors
 * are the expression's.
 */
@Internal
public final class SpindexBatchExec extends ExecBase {
  private static final long serialVersionUID = 1L;

  private final Seq<NamedExpression> projectList;
  private final SparkPlan child;

  /** Where the output columns come from ({@link Columns#of}), made on first use. */
  private transient Columns columns;

  /** The SQL metrics of the UI's plan, made on the driver when Spark first asks for them. */
  private transient scala.collection.immutable.Map<String, SQLMetric> metrics;

  /** The constructor Spark's plan copies call: the project list and the columnar child. */
  public SpindexBatchExec(Seq<NamedExpression> projectList, SparkPlan child) {
    this.projectList = projectList;
    this.child = child;
  }

  /**
   * This operator in place of a projection of {@code projectList} over {@code child}, or {@code
   * null} when it cannot take it: the child is not columnar, an item is not one it runs, or there
   * is no lookup to run.
   */
  static SparkPlan replacing(Seq<NamedExpression> projectList, SparkPlan child) {
    if (!child.supportsColumnar()) {
      return null;
    }
    Columns c = Columns.of(projectList, child.output());
    return c == null ? null : new SpindexBatchExec(projectList, child);
  }

  /**
   * For a projection that holds lookups it can run inside other expressions ({@code
   * lower(spindex_label(ip, 'geo'))}, {@code spindex_lookup(ip, 'geo').lat + 1}) or next to items
   * it cannot take: this operator for the lookups, passing the child's columns on, under a
   * projection of the rest that reads their answers; or {@code null} when the child is not columnar
   * or no lookup can run here. A lookup inside a conditional expression ({@code CASE}, {@code IF},
   * {@code coalesce}, {@code AND}, {@code OR}) stays there: the expression may not run it for every
   * row, and then neither counts nor raises for those rows.
   */
  static SparkPlan under(Seq<NamedExpression> projectList, SparkPlan child) {
    if (!child.supportsColumnar()) {
      return null;
    }
    Seq<Attribute> output = child.output();
    List<SpindexExpression> lookups = new ArrayList<>();
    for (int i = 0; i < projectList.length(); i++) {
      find((Expression) projectList.apply(i), output, lookups);
    }
    if (lookups.isEmpty()) {
      return null;
    }
    List<Attribute> answers = new ArrayList<>();
    SparkPlan batch = new SpindexBatchExec(inner(output, lookups, answers), child);
    NamedExpression[] outer = new NamedExpression[projectList.length()];
    for (int i = 0; i < outer.length; i++) {
      outer[i] = (NamedExpression) replace((Expression) projectList.apply(i), lookups, answers);
    }
    return new ProjectExec(Scala.list(outer), batch);
  }

  /** Adds the lookups under {@code e} this operator can run, each once. */
  private static void find(Expression e, Seq<Attribute> output, List<SpindexExpression> found) {
    if (e instanceof SpindexExpression) {
      SpindexExpression s = (SpindexExpression) e;
      if (runs(s, output) && !found.contains(s)) {
        found.add(s);
      }
      return;
    }
    if (e instanceof ConditionalExpression || e instanceof And || e instanceof Or) {
      return;
    }
    Seq<Expression> c = e.children();
    for (int i = 0; i < c.length(); i++) {
      find(c.apply(i), output, found);
    }
  }

  /** {@code e} with each of {@code lookups} replaced by its answer's column. */
  private static Expression replace(
      Expression e, List<SpindexExpression> lookups, List<Attribute> answers) {
    int k = e instanceof SpindexExpression ? lookups.indexOf(e) : -1;
    if (k >= 0) {
      return answers.get(k);
    }
    Seq<Expression> c = e.children();
    Expression[] now = new Expression[c.length()];
    boolean changed = false;
    for (int i = 0; i < now.length; i++) {
      now[i] = replace(c.apply(i), lookups, answers);
      changed |= now[i] != c.apply(i);
    }
    return changed ? e.withNewChildren(Scala.list(now)) : e;
  }

  /**
   * Whether this operator runs {@code s}: a label or lookup of a range index, or the membership of
   * a set index, of a column.
   */
  private static boolean runs(SpindexExpression s, Seq<Attribute> output) {
    SpindexExpression.Fn fn = s.fn();
    if (!(s.target() instanceof IndexRef)
        || fn == SpindexExpression.Fn.IP
        || fn == SpindexExpression.Fn.VERSION
        || ((IndexRef) s.target()).ranges() == (fn == SpindexExpression.Fn.CONTAINS)) {
      return false;
    }
    // A column of untyped NULLs (a NULL literal under an alias) is left to the expression.
    return s.child() instanceof Attribute
        && !(s.child().dataType() instanceof org.apache.spark.sql.types.NullType)
        && Columns.ordinal(output, (Attribute) s.child()) >= 0;
  }

  /**
   * For a filter whose condition holds lookups it can run (not under {@code AND}, {@code OR} or a
   * conditional expression, where the filter may not run them for every row): this operator for the
   * lookups, under the filter of a condition that reads their answers, under a projection of the
   * child's columns; or {@code null}. {@code WHERE spindex_contains(ip, 'blocklist')}, {@code WHERE
   * spindex_label(ip, 'geo') = 'KR'}.
   */
  static SparkPlan filtering(Expression condition, SparkPlan child) {
    if (!child.supportsColumnar()) {
      return null;
    }
    Seq<Attribute> output = child.output();
    List<SpindexExpression> lookups = new ArrayList<>();
    find(condition, output, lookups);
    if (lookups.isEmpty()) {
      return null;
    }
    List<Attribute> answers = new ArrayList<>();
    SparkPlan batch = new SpindexBatchExec(inner(output, lookups, answers), child);
    NamedExpression[] columns = new NamedExpression[output.length()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = output.apply(i);
    }
    return new ProjectExec(
        Scala.list(columns), new FilterExec(replace(condition, lookups, answers), batch));
  }

  /** The child's columns and an answer column for each lookup (added to {@code answers}). */
  private static Seq<NamedExpression> inner(
      Seq<Attribute> output, List<SpindexExpression> lookups, List<Attribute> answers) {
    List<NamedExpression> inner = new ArrayList<>();
    for (int i = 0; i < output.length(); i++) {
      inner.add(output.apply(i));
    }
    for (SpindexExpression e : lookups) {
      Alias a =
          new Alias(
              e,
              e.prettyName(),
              NamedExpression$.MODULE$.newExprId(),
              Scala.<String>list(),
              Option.<Metadata>empty(),
              Scala.<String>list());
      inner.add(a);
      answers.add(a.toAttribute());
    }
    return Scala.list(inner.toArray(new NamedExpression[0]));
  }

  @Override
  SparkPlan child() {
    return child;
  }

  @Override
  SparkPlan withNewChild(SparkPlan newChild) {
    return new SpindexBatchExec(projectList, newChild);
  }

  @Override
  Attribute[] outputColumns() {
    Attribute[] a = new Attribute[projectList.length()];
    for (int i = 0; i < a.length; i++) {
      a[i] = projectList.apply(i).toAttribute();
    }
    return a;
  }

  /** {@link Columns#of} this operator's list and child (null for a list it does not run). */
  private Columns columns() {
    if (columns == null) {
      columns = Columns.of(projectList, child.output());
    }
    return columns;
  }

  @Override
  String[] outputVectorTypes() {
    Columns c = columns();
    if (c == null) {
      return null;
    }
    String[] given = vectorTypes(child);
    String[] t = new String[c.from.length];
    for (int i = 0; i < t.length; i++) {
      t[i] =
          c.from[i] >= 0
              ? given == null ? ColumnVector.class.getName() : given[c.from[i]]
              : c.field[i] >= 0 ? LabelFieldVector.class.getName() : LabelVector.class.getName();
    }
    return t;
  }

  /**
   * The rows this operator passed on, and the time its lookups took (from the batch's addresses to
   * its answers, the reads of the next operators not included), in the SQL tab's plan.
   */
  @Override
  public scala.collection.immutable.Map<String, SQLMetric> metrics() {
    if (metrics == null) {
      scala.collection.immutable.Map<String, SQLMetric> m =
          scala.collection.immutable.Map$.MODULE$.empty();
      m = with(m, ROWS, SQLMetrics.createMetric(sparkContext(), "number of output rows"));
      metrics =
          with(
              m,
              TIME,
              SQLMetrics.createNanoTimingMetric(
                  sparkContext(),
                  "time in lookups",
                  SQLMetrics.createNanoTimingMetric$default$3()));
    }
    return metrics;
  }

  /**
   * {@code m} with one more entry. Scala 2.13's {@code updated} is declared to return a {@code
   * MapOps}; the map it returns is an immutable {@code Map} on 2.12 and 2.13 alike.
   */
  @SuppressWarnings("unchecked")
  private static scala.collection.immutable.Map<String, SQLMetric> with(
      scala.collection.immutable.Map<String, SQLMetric> m, String key, SQLMetric value) {
    Object updated = m.updated(key, value);
    return (scala.collection.immutable.Map<String, SQLMetric>) updated;
  }

  private static final String ROWS = "numOutputRows";
  private static final String TIME = "lookupTime";

  @Override
  public boolean supportsColumnar() {
    return true;
  }

  @Override
  public RDD<InternalRow> doExecute() {
    throw new IllegalStateException(nodeName() + " is columnar: Spark reads its batches as rows");
  }

  @Override
  public RDD<ColumnarBatch> doExecuteColumnar() {
    Columns c = columns();
    if (c == null) {
      throw new IllegalStateException(nodeName() + " over " + child.output() + ": " + projectList);
    }
    return child
        .executeColumnar()
        .toJavaRDD()
        .mapPartitions(new Run(c, metrics().apply(ROWS), metrics().apply(TIME)))
        .rdd();
  }

  @Override
  public int productArity() {
    return 2;
  }

  @Override
  public Object productElement(int n) {
    if (n == 0) {
      return projectList;
    }
    if (n == 1) {
      return child;
    }
    throw new IndexOutOfBoundsException(String.valueOf(n));
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof SpindexBatchExec;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SpindexBatchExec
        && projectList.equals(((SpindexBatchExec) o).projectList)
        && child.equals(((SpindexBatchExec) o).child);
  }

  @Override
  public int hashCode() {
    return 31 * projectList.hashCode() + child.hashCode();
  }

  /**
   * Where each output column comes from: column {@code from[i]} of the child's batch, or lookup
   * {@code lookup[i]} (its whole value, or field {@code field[i]} of its STRUCT). Each lookup is
   * its expression (the index, the function, the address column) and that column's place in the
   * child's batch. Travels to the executors.
   */
  static final class Columns implements Serializable {
    private static final long serialVersionUID = 1L;

    final int[] from;
    final int[] lookup;
    final int[] field;
    final List<SpindexExpression> lookups = new ArrayList<>();
    final List<Integer> input = new ArrayList<>();

    private Columns(int n) {
      from = new int[n];
      lookup = new int[n];
      field = new int[n];
    }

    /**
     * The columns of {@code list} over a child of {@code output}, or null (see {@link #replacing}).
     */
    static Columns of(Seq<NamedExpression> list, Seq<Attribute> output) {
      Columns c = new Columns(list.length());
      for (int i = 0; i < list.length(); i++) {
        c.from[i] = -1;
        c.lookup[i] = -1;
        c.field[i] = -1;
        Expression e = (Expression) list.apply(i);
        if (e instanceof Alias) {
          e = ((Alias) e).child();
        }
        if (e instanceof Attribute) {
          c.from[i] = ordinal(output, (Attribute) e);
          if (c.from[i] < 0) {
            return null;
          }
          continue;
        }
        if (e instanceof GetStructField) {
          c.field[i] = ((GetStructField) e).ordinal();
          e = ((GetStructField) e).child();
        }
        if (!(e instanceof SpindexExpression)) {
          return null;
        }
        SpindexExpression s = (SpindexExpression) e;
        if (!runs(s, output) || c.field[i] >= 0 && s.fn() != SpindexExpression.Fn.LOOKUP) {
          return null;
        }
        int k = c.lookups.indexOf(s);
        if (k < 0) {
          k = c.lookups.size();
          c.lookups.add(s);
          c.input.add(ordinal(output, (Attribute) s.child()));
        }
        c.lookup[i] = k;
      }
      return c.lookups.isEmpty() ? null : c;
    }

    static int ordinal(Seq<Attribute> output, Attribute a) {
      for (int i = 0; i < output.length(); i++) {
        if (output.apply(i).exprId().equals(a.exprId())) {
          return i;
        }
      }
      return -1;
    }
  }

  /** One task's batches: each input batch's lookups run, its output batch made. */
  private static final class Run
      implements FlatMapFunction<Iterator<ColumnarBatch>, ColumnarBatch> {
    private static final long serialVersionUID = 1L;
    private final Columns c;
    private final SQLMetric rows;
    private final SQLMetric time;

    Run(Columns c, SQLMetric rows, SQLMetric time) {
      this.c = c;
      this.rows = rows;
      this.time = time;
    }

    @Override
    public Iterator<ColumnarBatch> call(Iterator<ColumnarBatch> in) {
      int k = c.lookups.size();
      LookupBatch[] lookups = new LookupBatch[k];
      LabelVector[] vectors = new LabelVector[k];
      for (int i = 0; i < k; i++) {
        SpindexExpression e = c.lookups.get(i);
        lookups[i] =
            new LookupBatch(
                (IndexRef) e.target(),
                IndexRef.columnKind(e.child().dataType()),
                e.fn() == SpindexExpression.Fn.LOOKUP);
        vectors[i] = new LabelVector(e.dataType(), lookups[i]);
      }
      return new Iterator<ColumnarBatch>() {
        @Override
        public boolean hasNext() {
          return in.hasNext();
        }

        @Override
        public ColumnarBatch next() {
          ColumnarBatch b = in.next();
          int n = b.numRows();
          long t0 = System.nanoTime();
          for (int i = 0; i < k; i++) {
            lookups[i].fill(b.column(c.input.get(i)), n);
            vectors[i].reset();
          }
          time.add(System.nanoTime() - t0);
          rows.add(n);
          ColumnVector[] cols = new ColumnVector[c.from.length];
          for (int i = 0; i < cols.length; i++) {
            cols[i] =
                c.from[i] >= 0
                    ? b.column(c.from[i])
                    : c.field[i] >= 0
                        ? vectors[c.lookup[i]].getChild(c.field[i])
                        : vectors[c.lookup[i]];
          }
          return new ColumnarBatch(cols, n);
        }
      };
    }
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import java.util.Collections;
import java.util.Objects;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.TypeCheckResult;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.codegen.CodeBlock;
import org.apache.spark.sql.catalyst.expressions.codegen.CodeGenerator;
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenContext;
import org.apache.spark.sql.catalyst.expressions.codegen.ExprCode;
import org.apache.spark.sql.catalyst.expressions.codegen.JavaCode;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.StringType;
import scala.collection.IndexedSeq;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * A Spindex SQL function of one address column: a native Catalyst expression with its own generated
 * code (whole-stage code generation calls the lookup directly; no UDF wrapper, no interpreted
 * fallback). The address may be STRING (text, IPv4 or IPv6, also {@code [addr]} and {@code
 * [addr]:port}), INT or BIGINT (an unsigned IPv4 value) or BINARY (4 or 16 bytes). A NULL or
 * unparseable address gives NULL and is counted; the lookup object (see {@link IndexRef}) travels
 * with the plan.
 */
abstract class IpExpression extends Expression implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final Expression child;

  /** What the generated code calls: {@code call(value)} on {@link #target()}. */
  private final Object target;

  private final String call;

  IpExpression(Expression child, Object target, String call) {
    this.child = child;
    this.target = target;
    this.call = call;
  }

  Object target() {
    return target;
  }

  Expression child() {
    return child;
  }

  @Override
  public Seq<Expression> children() {
    return JavaConverters.asScalaBufferConverter(Collections.singletonList(child))
        .asScala()
        .toSeq();
  }

  @Override
  public Expression withNewChildrenInternal(IndexedSeq<Expression> children) {
    return withNewChild(children.apply(0));
  }

  /** This expression over another address column. */
  abstract Expression withNewChild(Expression child);

  @Override
  public boolean foldable() {
    return false;
  }

  @Override
  public boolean nullable() {
    return true;
  }

  @Override
  public TypeCheckResult checkInputDataTypes() {
    DataType t = child.dataType();
    if (t instanceof StringType
        || t instanceof IntegerType
        || t instanceof LongType
        || t instanceof BinaryType) {
      return TypeCheckResult.TypeCheckSuccess$.MODULE$;
    }
    return new TypeCheckResult.TypeCheckFailure(
        prettyName()
            + ": the address must be STRING, INT, BIGINT or BINARY, not "
            + t.simpleString());
  }

  /** The answer for one non-null address value (interpreted path); null for NULL. */
  abstract Object answer(Object value);

  /** Code turning the target's result {@code r} (a Java expression) into value and isNull. */
  abstract String assign(String result, ExprCode ev);

  /** Counts a NULL address. */
  abstract void nullInput();

  @Override
  public Object eval(InternalRow row) {
    Object v = child.eval(row);
    if (v == null) {
      nullInput();
      return null;
    }
    return answer(v);
  }

  @Override
  public ExprCode doGenCode(CodegenContext ctx, ExprCode ev) {
    ExprCode c = child.genCode(ctx);
    String ref = ctx.addReferenceObj("spindex", target, target.getClass().getName());
    String type = CodeGenerator.javaType(dataType());
    String code =
        c.code()
            + "\nboolean "
            + ev.isNull()
            + " = "
            + c.isNull()
            + ";\n"
            + type
            + " "
            + ev.value()
            + " = "
            + CodeGenerator.defaultValue(dataType(), true)
            + ";\nif ("
            + ev.isNull()
            + ") {\n  "
            + ref
            + ".nullInput();\n} else {\n  "
            + assign(ref + "." + call + "(" + c.value() + ")", ev)
            + "\n}\n";
    CodeBlock block =
        new CodeBlock(
            JavaConverters.asScalaBufferConverter(Collections.singletonList(code))
                .asScala()
                .toSeq(),
            JavaConverters.asScalaBufferConverter(Collections.<JavaCode>emptyList())
                .asScala()
                .toSeq());
    return ev.copy(block, JavaCode.isNullVariable(ev.isNull().toString()), ev.value());
  }

  @Override
  public int productArity() {
    return 2;
  }

  @Override
  public Object productElement(int n) {
    if (n == 0) {
      return child;
    }
    if (n == 1) {
      return target.toString();
    }
    throw new IndexOutOfBoundsException(String.valueOf(n));
  }

  @Override
  public boolean canEqual(Object that) {
    return that != null && that.getClass() == getClass();
  }

  @Override
  public boolean equals(Object o) {
    if (o == null || o.getClass() != getClass()) {
      return false;
    }
    IpExpression e = (IpExpression) o;
    return child.equals(e.child) && target.toString().equals(e.target.toString());
  }

  @Override
  public int hashCode() {
    return Objects.hash(getClass(), child, target.toString());
  }
}

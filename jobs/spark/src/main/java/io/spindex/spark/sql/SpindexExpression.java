/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import java.io.Serializable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
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
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Every Spindex SQL function of one address column, as one native Catalyst expression with its own
 * generated code: whole-stage code generation calls the lookup directly (no UDF wrapper, no
 * interpreted fallback). The address may be STRING of any collation (text, IPv4 or IPv6, also
 * {@code [addr]} and {@code [addr]:port}), INT or BIGINT (an unsigned IPv4 value) or BINARY (4 or
 * 16 bytes). A NULL address gives NULL and is counted; what an unparseable one gives is the
 * target's decision (NULL and counted, or under ANSI mode an error naming the function, value and
 * column). The target travels with the plan.
 *
 * <p>The one signature that differs between Scala 2.12 and 2.13 is in {@link ExpressionBase}, so
 * this source compiles for every Spark line.
 */
final class SpindexExpression extends ExpressionBase implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The functions: their SQL name and the method of the target the generated code calls. */
  enum Fn {
    LABEL("spindex_label", "label"),
    LOOKUP("spindex_lookup", "lookup"),
    CONTAINS("spindex_contains", "contains"),
    IP("spindex_ip", "canonical"),
    /**
     * {@code spindex_version(index)}: the version the query or micro-batch answers from; its child
     * is the index's name (a constant), so that it moves with the other functions of a stream.
     */
    VERSION("spindex_version", "version");

    final String sql;
    final String call;

    Fn(String sql, String call) {
      this.sql = sql;
      this.call = call;
    }

    /** The SQL name of this function, or of its {@code try_} twin. */
    String name(boolean orNull) {
      return orNull ? "try_" + sql : sql;
    }
  }

  private final Expression child;
  private final Fn fn;
  private final boolean orNull;
  private final AddressTarget target;
  private final DataType type;

  private transient Method method;

  SpindexExpression(Expression child, Fn fn, boolean orNull, AddressTarget target) {
    this.child = child;
    this.fn = fn;
    this.orNull = orNull;
    this.target = target;
    this.type = typeOf(fn, target);
  }

  private static DataType typeOf(Fn fn, AddressTarget target) {
    switch (fn) {
      case CONTAINS:
        return DataTypes.BooleanType;
      case LOOKUP:
        return ((IndexRef) target).lookupType();
      case VERSION:
        return IndexRef.VERSION_TYPE;
      default:
        return DataTypes.StringType;
    }
  }

  /** The function. */
  Fn fn() {
    return fn;
  }

  /** What the function reads (the index, or the address text). */
  AddressTarget target() {
    return target;
  }

  @Override
  Expression child() {
    return child;
  }

  /** This function reading {@code newTarget} (another version of its index). */
  SpindexExpression withTarget(AddressTarget newTarget) {
    return new SpindexExpression(child, fn, orNull, newTarget);
  }

  @Override
  Expression withNewChild(Expression newChild) {
    return new SpindexExpression(newChild, fn, orNull, target);
  }

  @Override
  public DataType dataType() {
    return type;
  }

  @Override
  public String prettyName() {
    return fn.name(orNull);
  }

  /**
   * Never: not even {@code spindex_version} of a constant name, whose value is the version a query
   * or micro-batch answers from (the optimizer must not freeze it into the plan).
   */
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
    // instanceof, not equals: under Spark 4 a collated STRING is another StringType instance. An
    // untyped NULL (the literal NULL) is a NULL address like any other: the answer is NULL.
    if (t instanceof StringType
        || t instanceof IntegerType
        || t instanceof LongType
        || t instanceof BinaryType
        || t instanceof NullType) {
      return TypeCheckResult.TypeCheckSuccess$.MODULE$;
    }
    return new TypeCheckResult.TypeCheckFailure(
        prettyName()
            + ": the address must be STRING, INT, BIGINT, BINARY or NULL, not "
            + t.simpleString());
  }

  /** Interpreted path: the same target method the generated code calls. */
  @Override
  public Object eval(InternalRow row) {
    Object v = child.eval(row);
    if (v == null) {
      target.nullInput();
      return null;
    }
    Object r;
    try {
      r = method(v.getClass()).invoke(target, v);
    } catch (InvocationTargetException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IllegalStateException(c);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
    if (fn == Fn.CONTAINS) {
      int c = (Integer) r;
      return c < 0 ? null : c == 1;
    }
    return r;
  }

  private Method method(Class<?> value) {
    Method m = method;
    if (m == null) {
      Class<?> p =
          value == UTF8String.class
              ? UTF8String.class
              : value == Integer.class
                  ? int.class
                  : value == Long.class ? long.class : byte[].class;
      try {
        m = target.getClass().getMethod(fn.call, p);
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException(e);
      }
      method = m;
    }
    return m;
  }

  @Override
  public ExprCode doGenCode(CodegenContext ctx, ExprCode ev) {
    ExprCode c = child.genCode(ctx);
    String ref = ctx.addReferenceObj("spindex", target, target.getClass().getName());
    if (child.dataType() instanceof NullType) {
      // An untyped NULL: always NULL, counted as NULL addresses are (no lookup to call).
      String code =
          c.code()
              + "\n"
              + ref
              + ".nullInput();\nboolean "
              + ev.isNull()
              + " = true;\n"
              + CodeGenerator.javaType(type)
              + " "
              + ev.value()
              + " = "
              + CodeGenerator.defaultValue(type, true)
              + ";\n";
      CodeBlock block = new CodeBlock(Scala.list(code), Scala.<JavaCode>list());
      return ev.copy(block, JavaCode.isNullVariable(ev.isNull().toString()), ev.value());
    }
    String call = ref + "." + fn.call + "(" + c.value() + ")";
    String assign;
    if (fn == Fn.CONTAINS) {
      String r = ctx.freshName("contains");
      assign =
          "int "
              + r
              + " = "
              + call
              + ";\n  "
              + ev.isNull()
              + " = "
              + r
              + " < 0;\n  "
              + ev.value()
              + " = "
              + r
              + " == 1;";
    } else {
      assign = ev.value() + " = " + call + ";\n  " + ev.isNull() + " = " + ev.value() + " == null;";
    }
    String code =
        c.code()
            + "\nboolean "
            + ev.isNull()
            + " = "
            + c.isNull()
            + ";\n"
            + CodeGenerator.javaType(type)
            + " "
            + ev.value()
            + " = "
            + CodeGenerator.defaultValue(type, true)
            + ";\nif ("
            + ev.isNull()
            + ") {\n  "
            + ref
            + ".nullInput();\n} else {\n  "
            + assign
            + "\n}\n";
    CodeBlock block = new CodeBlock(Scala.list(code), Scala.<JavaCode>list());
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
    return that instanceof SpindexExpression;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SpindexExpression)) {
      return false;
    }
    SpindexExpression e = (SpindexExpression) o;
    return fn == e.fn
        && orNull == e.orNull
        && child.equals(e.child)
        && target.toString().equals(e.target.toString());
  }

  @Override
  public int hashCode() {
    return Objects.hash(fn, orNull, child, target.toString());
  }
}

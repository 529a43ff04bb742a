/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.codegen.ExprCode;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;

/** {@code spindex_ip(ip)}: the canonical text of the address, or NULL. */
final class SpindexIp extends IpExpression {
  private static final long serialVersionUID = 1L;

  SpindexIp(Expression ip, IpText text) {
    super(ip, text, "canonical");
  }

  @Override
  public DataType dataType() {
    return DataTypes.StringType;
  }

  @Override
  public String prettyName() {
    return "spindex_ip";
  }

  @Override
  Object answer(Object v) {
    IpText t = (IpText) target();
    if (v instanceof UTF8String) {
      return t.canonical((UTF8String) v);
    } else if (v instanceof Integer) {
      return t.canonical((int) (Integer) v);
    } else if (v instanceof Long) {
      return t.canonical((long) (Long) v);
    }
    return t.canonical((byte[]) v);
  }

  @Override
  String assign(String result, ExprCode ev) {
    return ev.value() + " = " + result + ";\n  " + ev.isNull() + " = " + ev.value() + " == null;";
  }

  @Override
  void nullInput() {
    ((IpText) target()).nullInput();
  }

  @Override
  Expression withNewChild(Expression child) {
    return new SpindexIp(child, (IpText) target());
  }

  @Override
  public int productArity() {
    return 1;
  }
}

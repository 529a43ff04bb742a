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

/** {@code spindex_label(ip, index)}: the label of the range holding the address, or NULL. */
final class SpindexLabel extends IpExpression {
  private static final long serialVersionUID = 1L;

  SpindexLabel(Expression ip, IndexRef index) {
    super(ip, index, "label");
  }

  @Override
  public DataType dataType() {
    return DataTypes.StringType;
  }

  @Override
  public String prettyName() {
    return "spindex_label";
  }

  @Override
  Object answer(Object v) {
    IndexRef r = (IndexRef) target();
    if (v instanceof UTF8String) {
      return r.label((UTF8String) v);
    } else if (v instanceof Integer) {
      return r.label((int) (Integer) v);
    } else if (v instanceof Long) {
      return r.label((long) (Long) v);
    }
    return r.label((byte[]) v);
  }

  @Override
  String assign(String result, ExprCode ev) {
    return ev.value() + " = " + result + ";\n  " + ev.isNull() + " = " + ev.value() + " == null;";
  }

  @Override
  void nullInput() {
    ((IndexRef) target()).nullInput();
  }

  @Override
  Expression withNewChild(Expression child) {
    return new SpindexLabel(child, (IndexRef) target());
  }
}

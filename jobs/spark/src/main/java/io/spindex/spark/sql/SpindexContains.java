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

/** {@code spindex_contains(ip, index)}: whether a set index holds the address; NULL if none. */
final class SpindexContains extends IpExpression {
  private static final long serialVersionUID = 1L;

  SpindexContains(Expression ip, IndexRef index) {
    super(ip, index, "contains");
  }

  @Override
  public DataType dataType() {
    return DataTypes.BooleanType;
  }

  @Override
  public String prettyName() {
    return "spindex_contains";
  }

  @Override
  Object answer(Object v) {
    IndexRef r = (IndexRef) target();
    int c;
    if (v instanceof UTF8String) {
      c = r.contains((UTF8String) v);
    } else if (v instanceof Integer) {
      c = r.contains((int) (Integer) v);
    } else if (v instanceof Long) {
      c = r.contains((long) (Long) v);
    } else {
      c = r.contains((byte[]) v);
    }
    return c < 0 ? null : c == 1;
  }

  @Override
  String assign(String result, ExprCode ev) {
    return "int c = "
        + result
        + ";\n  "
        + ev.isNull()
        + " = c < 0;\n  "
        + ev.value()
        + " = c == 1;";
  }

  @Override
  void nullInput() {
    ((IndexRef) target()).nullInput();
  }

  @Override
  Expression withNewChild(Expression child) {
    return new SpindexContains(child, (IndexRef) target());
  }
}

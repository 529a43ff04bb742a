/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.codegen.ExprCode;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code spindex_lookup(ip, index)}: the label of the range holding the address as a STRUCT of the
 * fields the index declares ({@code spindex build ranges --label-fields}), else {@code
 * STRUCT<label: STRING>}; NULL when no range holds it.
 */
final class SpindexLookup extends IpExpression {
  private static final long serialVersionUID = 1L;

  private final StructType type;

  SpindexLookup(Expression ip, IndexRef index) {
    super(ip, index, "lookup");
    StructType t = new StructType();
    List<String> fields = index.fields();
    for (String f : fields.isEmpty() ? List.of("label") : fields) {
      t = t.add(f, DataTypes.StringType, true);
    }
    this.type = t;
  }

  @Override
  public DataType dataType() {
    return type;
  }

  @Override
  public String prettyName() {
    return "spindex_lookup";
  }

  @Override
  Object answer(Object v) {
    IndexRef r = (IndexRef) target();
    if (v instanceof UTF8String) {
      return r.lookup((UTF8String) v);
    } else if (v instanceof Integer) {
      return r.lookup((int) (Integer) v);
    } else if (v instanceof Long) {
      return r.lookup((long) (Long) v);
    }
    return r.lookup((byte[]) v);
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
    return new SpindexLookup(child, (IndexRef) target());
  }
}

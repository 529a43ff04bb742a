/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.annotations.Internal;
import io.spindex.spark.sql.SpindexExpression.Fn;
import org.apache.spark.sql.Column;

/**
 * The SQL functions as a job calls them: the index loaded with the job's {@code --loader}, passed
 * as a value, where a query's call takes the session's {@code spark.spindex.loader}. The table path
 * of ip-lookup builds its columns here.
 */
@Internal
public final class JobColumns {
  private JobColumns() {}

  /** {@code try_spindex_contains(ip, index)}, the index loaded with {@code loader}. */
  public static Column tryContains(Column ip, String index, String loader) {
    return functions.call(Fn.CONTAINS, true, ip, index, loader);
  }

  /** {@code try_spindex_label(ip, index)}, the index loaded with {@code loader}. */
  public static Column tryLabel(Column ip, String index, String loader) {
    return functions.call(Fn.LABEL, true, ip, index, loader);
  }
}

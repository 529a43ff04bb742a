/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import java.io.Serializable;

/**
 * What a Spindex SQL function calls for each row: {@link IndexRef} (label, lookup, contains) or
 * {@link IpText} (canonical text). Each has one public method per address type, named by {@link
 * SpindexExpression.Fn#call}, that the generated code calls directly; this interface carries what
 * is common to both.
 */
interface AddressTarget extends Serializable {
  /** Counts a NULL address (its answer is NULL). */
  void nullInput();
}

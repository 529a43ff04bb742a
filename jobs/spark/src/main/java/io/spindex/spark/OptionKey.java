/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

/**
 * One job option: {@code --name value} on the command line, or {@code spark.spindex.<name>} in the
 * Spark configuration (e.g. in spark-defaults.conf) as the default. Each job declares its options
 * as an enum implementing this; {@code conf/spindex-jobs.conf} mirrors them.
 */
interface OptionKey {
  /** The option name without dashes, e.g. {@code loader}. */
  String optionName();

  /** The built-in default, or {@code null} when the option is required. */
  String defaultValue();

  /** One line for usage text. */
  String description();
}

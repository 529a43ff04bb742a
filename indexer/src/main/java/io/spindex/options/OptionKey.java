/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.options;

/**
 * One option of a job (Spark or MapReduce). Each job declares its options as an enum implementing
 * this, each constant holding its {@link OptionSpec}.
 */
public interface OptionKey {
  /** Name, default and usage line. */
  OptionSpec spec();

  /** The option name without dashes, e.g. {@code loader}. */
  default String optionName() {
    return spec().name();
  }

  /** The built-in default, or {@code null} when the option is required. */
  default String defaultValue() {
    return spec().defaultValue();
  }

  /** One line for usage text. */
  default String description() {
    return spec().description();
  }
}

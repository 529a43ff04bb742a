/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.options;

import java.util.Objects;

/** What a job option is: its name, its default ({@code null}: required) and its usage line. */
public final class OptionSpec {
  private final String name;
  private final String defaultValue;
  private final String description;

  public OptionSpec(String name, String defaultValue, String description) {
    this.name = Objects.requireNonNull(name, "name");
    this.defaultValue = defaultValue;
    this.description = Objects.requireNonNull(description, "description");
  }

  /** The option name without dashes, e.g. {@code loader}. */
  public String name() {
    return name;
  }

  /** The built-in default, or {@code null} when the option is required. */
  public String defaultValue() {
    return defaultValue;
  }

  /** One line for usage text. */
  public String description() {
    return description;
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;

/**
 * A mistake on the command line, or {@code --help}: the message is meant for the person who typed
 * it. Every engine prints it as it is (no stack trace) and exits 2, or 0 for {@link #isHelp()}.
 */
@Internal
public final class UsageException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final boolean help;

  public UsageException(String message) {
    this(message, false);
  }

  private UsageException(String message, boolean help) {
    super(message);
    this.help = help;
  }

  /** {@code --help}: the message is the usage text, to print on standard output. */
  static UsageException help(String usage) {
    return new UsageException(usage, true);
  }

  /** Whether this is the answer to {@code --help} rather than a mistake. */
  public boolean isHelp() {
    return help;
  }

  /** The exit status an engine gives: 0 for {@code --help}, 2 for a mistake. */
  public int exitCode() {
    return help ? 0 : 2;
  }
}

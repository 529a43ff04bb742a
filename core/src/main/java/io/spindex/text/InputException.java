/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;
import java.io.IOException;

/**
 * Source text that cannot be indexed as asked: a reject under {@code --strict}, overlapping ranges
 * under {@code --on-overlap fail}. The message names the file and line, the text and the rule.
 */
@Internal
public final class InputException extends IOException {
  private static final long serialVersionUID = 1L;

  public InputException(String message) {
    super(message);
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import java.io.IOException;

/**
 * A database older than the {@code max-age} it is read with ({@link Freshness}): one line naming
 * the file, its age, when its source was built and the limit. An engine prints it as it prints a
 * damaged index ({@code spindex <job>: <message>}, exit 1).
 */
@Internal
public final class StaleIndexException extends IOException {
  private static final long serialVersionUID = 1L;

  StaleIndexException(String message) {
    super(message);
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import io.spindex.annotations.Internal;
import java.io.IOException;

/**
 * Staging failed in a way a person can act on: the copy failed verification (a corrupt source
 * index, a truncated transfer), the source changed during the copy, or there is not enough room.
 * The message names the source and the destination, on one line. Nothing was written under the
 * destination's name.
 */
@Internal
public final class StageException extends IOException {
  private static final long serialVersionUID = 1L;

  StageException(String message) {
    super(message);
  }

  StageException(String message, Throwable cause) {
    super(message, cause);
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;

/**
 * Why a row was rejected: filled by the line check or the transform step that rejects it. One per
 * thread.
 */
@Internal
public final class Verdict {
  /** What a step returns for a row it rejected ({@link #reject}'s result). */
  public static final int REJECTED = 2;

  /** The reason (a short name, counted by reason), or {@code null} before a rejection. */
  public String reason;

  /** What exactly was wrong, for the rejects output. */
  public String detail;

  /** Records a rejection; returns {@link #REJECTED}. */
  public int reject(String reason, String detail) {
    this.reason = reason;
    this.detail = detail;
    return REJECTED;
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;

/**
 * Which output of a job directory a record goes to. Directories whose names start with {@code _}
 * are skipped by Hadoop and Spark readers of the job output, so a later job can read {@code OUT}
 * and see the main output only.
 */
@Internal
public enum Route {
  /** The main output: {@code OUT/part-*}. */
  OUTPUT(""),
  /** Rejected lines with their reason and source position: {@code OUT/_rejects/part-*}. */
  REJECTS("_rejects/");

  private final String dir;

  Route(String dir) {
    this.dir = dir;
  }

  /** The directory under the job output, with its trailing {@code /} (empty for the output). */
  public String dir() {
    return dir;
  }
}

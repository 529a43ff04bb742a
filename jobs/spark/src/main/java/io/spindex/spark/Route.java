/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

/**
 * Which output of a job directory a record goes to (the key of {@link RoutedTextOutputFormat}).
 * Hidden directories ({@code _} prefix) are skipped by Hadoop and Spark readers of the job output.
 */
enum Route {
  /** Main output: {@code OUT/part-r-NNNNN}. */
  LINES(""),
  /** Rejected lines with reason and source position: {@code OUT/_rejects/part-r-NNNNN}. */
  REJECTS("_rejects/"),
  /** Count mode, per-task counts before they are merged: {@code OUT/partial-counts/}. */
  PARTIAL_COUNTS("partial-counts/");

  final String dir;

  Route(String dir) {
    this.dir = dir;
  }
}

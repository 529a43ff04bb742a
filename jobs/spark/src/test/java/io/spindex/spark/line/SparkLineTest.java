/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.line;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/**
 * The wrong-line check, in each line's build: the jar fits the Spark and Scala it is tested with,
 * and a session of another line gets one line naming both and the artifact that fits it.
 */
class SparkLineTest {
  @Test
  void theJarFitsTheSparkItIsBuiltAndTestedWith() {
    assertEquals(org.apache.spark.package$.MODULE$.SPARK_VERSION(), SparkLine.sparkVersion());
    assertNull(SparkLine.mismatch(SparkLine.sparkVersion(), SparkLine.scalaVersion()));
    assertEquals(
        "spindex-spark-" + SparkLine.LINE + "_" + SparkLine.SCALA,
        SparkLine.ARTIFACT,
        "the artifact is named after its line and Scala version");
  }

  @Test
  void anotherLineIsOneLineNamingTheArtifactToUse() {
    String[][] sessions = {
      {"3.5.9", "2.12.18", "spindex-spark-3.5_2.12"},
      {"3.5.9", "2.13.8", "spindex-spark-3.5_2.13"},
      {"4.0.5", "2.13.16", "spindex-spark-4.x_2.13"},
      {"4.1.4", "2.13.17", "spindex-spark-4.x_2.13"},
      {"4.3.0", "2.13.17", "spindex-spark-4.x_2.13"},
    };
    int foreign = 0;
    for (String[] s : sessions) {
      String m = SparkLine.mismatch(s[0], s[1]);
      if (s[2].equals(SparkLine.ARTIFACT)) {
        assertNull(m, s[0] + " / " + s[1]);
        continue;
      }
      foreign++;
      assertEquals(
          "spindex: "
              + SparkLine.ARTIFACT
              + " is built for Spark "
              + SparkLine.LINE
              + " / Scala "
              + SparkLine.SCALA
              + ", but this session runs Spark "
              + s[0]
              + " / Scala "
              + s[1]
              + ": use "
              + s[2],
          m);
    }
    assertEquals(true, foreign >= 2);
    assertEquals(
        "spindex: "
            + SparkLine.ARTIFACT
            + " is built for Spark "
            + SparkLine.LINE
            + " / Scala "
            + SparkLine.SCALA
            + ", but this session runs Spark 3.4.1 / Scala 2.12.17: use Spark 3.5 or 4.x"
            + " (Spindex has no build for Spark 3.4.1)",
        SparkLine.mismatch("3.4.1", "2.12.17"));
  }
}

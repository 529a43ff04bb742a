/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
/**
 * Side data on Spark, below both the jobs ({@code io.spindex.spark}) and the SQL functions ({@code
 * io.spindex.spark.sql}), one path for both: shipping an index from the driver ({@link
 * io.spindex.spark.side.SparkDriver}; {@link io.spindex.spark.side.SparkSides} for code that is not
 * a job), finding, staging ({@link io.spindex.spark.side.Staging}) and loading it once per executor
 * JVM ({@link io.spindex.spark.side.SparkTaskSide}, over the holder), the per-JVM load and stage
 * events reported through the jobs' accumulators ({@link io.spindex.spark.side.Ledger}), and the
 * configuration keys ({@link io.spindex.spark.side.SpindexConf}).
 */
package io.spindex.spark.side;

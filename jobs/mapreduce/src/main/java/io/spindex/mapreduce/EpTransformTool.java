/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.job.EpTransformDefinition;

/** ep-transform on MapReduce ({@link EpTransformDefinition}, run by {@link LineJobTool}). */
final class EpTransformTool extends LineJobTool<EpTransformDefinition.Plan> {
  public EpTransformTool() {
    super(new EpTransformDefinition());
  }
}

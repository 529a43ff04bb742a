/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.job.IpLookupDefinition;

/** ip-lookup on MapReduce ({@link IpLookupDefinition}, run by {@link LineJobTool}). */
final class IpLookupTool extends LineJobTool<IpLookupDefinition.Plan> {
  public IpLookupTool() {
    super(new IpLookupDefinition());
  }
}

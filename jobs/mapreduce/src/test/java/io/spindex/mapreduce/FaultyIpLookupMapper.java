/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import java.io.IOException;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * ip-lookup's map task with two injected faults, for {@link IpLookupClusterTest}: the first attempt
 * of map task 0 throws after {@value #CHUNKS_BEFORE_FAULT} chunk of lines, and the first attempt of
 * map task 1 halts its JVM after as many (a crashed task JVM: no cleanup, no final status). Both
 * have acquired the index and written output by then. Every other attempt is the line jobs' {@link
 * LineJobMapper} unchanged. Halting is refused outside a YARN task JVM, where it would end the
 * test's own JVM.
 */
final class FaultyIpLookupMapper extends LineJobMapper {
  static final int CHUNKS_BEFORE_FAULT = 1;
  static final int HALT_STATUS = 17;
  static final String THROWN = "injected failure of the first attempt";

  @Override
  public void run(Context context) throws IOException, InterruptedException {
    TaskAttemptID attempt = context.getTaskAttemptID();
    int task = attempt.getTaskID().getId();
    if (attempt.getId() > 0 || task > 1) {
      super.run(context);
      return;
    }
    setup(context);
    for (int i = 0; i < CHUNKS_BEFORE_FAULT && context.nextKeyValue(); i++) {
      map(context.getCurrentKey(), context.getCurrentValue(), context);
    }
    if (task == 0) {
      throw new IOException(THROWN + " (" + attempt + ")");
    }
    if (!MRConfig.YARN_FRAMEWORK_NAME.equals(
        context.getConfiguration().get(MRConfig.FRAMEWORK_NAME))) {
      throw new IllegalStateException("halting is only injected into YARN task JVMs");
    }
    Runtime.getRuntime().halt(HALT_STATUS);
  }
}

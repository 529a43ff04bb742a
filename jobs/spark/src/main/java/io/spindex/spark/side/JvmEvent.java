/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.side;

import io.spindex.annotations.Internal;
import java.io.Serializable;
import java.util.Locale;
import org.apache.spark.SparkEnv;

/**
 * Something that happens once per executor JVM: the index staged to local disk or loaded. Carries
 * who (executor id, host, process id) so that the driver can show one row per JVM. Immutable.
 */
@Internal
public final class JvmEvent implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String LOAD = "load";
  public static final String STAGE = "stage";

  public final String what;
  public final String executorId;
  public final String host;
  public final long pid;
  public final String loader;
  public final long nanos;
  public final long bytes;
  public final String headerCrc;

  JvmEvent(String what, String loader, long nanos, long bytes, String headerCrc) {
    this.what = what;
    this.loader = loader;
    this.nanos = nanos;
    this.bytes = bytes;
    this.headerCrc = headerCrc;
    SparkEnv env = SparkEnv.get();
    this.executorId = env == null ? "?" : env.executorId();
    String h;
    try {
      h = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      h = "?";
    }
    this.host = h;
    this.pid = ProcessHandle.current().pid();
  }

  public double millis() {
    return nanos / 1e6;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s executor %s (%s pid %d) %s %.1f ms %d bytes%s",
        what,
        executorId,
        host,
        pid,
        loader,
        millis(),
        bytes,
        headerCrc == null ? "" : " crc32c " + headerCrc);
  }
}

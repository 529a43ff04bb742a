/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import java.nio.file.Paths;
import java.time.Duration;

/** Another process that holds the staging lock of {@code args[0]} until its stdin closes. */
public final class LockHolder {
  private LockHolder() {}

  public static void main(String[] args) throws Exception {
    HostLock lock = HostLock.acquire(Paths.get(args[0]), Duration.ofSeconds(30));
    try {
      System.out.println("locked");
      System.out.flush();
      while (System.in.read() >= 0) {
        // Hold the lock until the test closes our stdin.
      }
    } finally {
      lock.close();
    }
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The staging lock excludes another process, and is released when that process ends. */
class StageLockProcessTest {
  @TempDir Path dir;

  @Test
  void anotherProcessHoldingTheLockIsWaitedFor() throws Exception {
    Path src = StageTest.buildSet(dir, "ips", 10_000, 1);
    Path dst = dir.resolve("dst/ips.spx").toAbsolutePath();
    Files.createDirectories(dst.getParent());
    Process holder =
        new ProcessBuilder(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LockHolder.class.getName(),
                dst.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("locked", out.readLine());
      IOException e =
          assertThrows(
              IOException.class,
              () ->
                  Stager.stage(
                      StageSource.local(src),
                      dst,
                      StageOptions.defaults().lockTimeout(Duration.ofMillis(300))));
      // The holder wrote who it is into the lock file; the waiter names it.
      assertTrue(
          e.getMessage()
              .matches(
                  java.util.regex.Pattern.quote(dst.getParent().resolve(".ips.spx.lock").toString())
                      + ": still locked by pid "
                      + holder.pid()
                      + " on .+ since .+Z after 0\\.3 s"),
          e.getMessage());
      assertFalse(Files.exists(dst));
      holder.getOutputStream().close();
      assertTrue(holder.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, holder.exitValue());
      assertTrue(
          Stager.stage(
                  StageSource.local(src),
                  dst,
                  StageOptions.defaults().lockTimeout(Duration.ofSeconds(30)))
              .copied());
    } finally {
      holder.destroy();
    }
  }
}

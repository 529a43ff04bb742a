/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.spark.side.SpindexConf;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code spark.spindex.sql.names-only}, for shared servers: with it on in the launch configuration,
 * a SQL function opens only indexes named there — not a path a query gives, not a name a session
 * {@code SET} — and a UDF only a bare name shipped with {@code --files}.
 */
class NamesOnlyTest {
  private static String path(Map<String, String> launch, Map<String, String> session, String n) {
    return SpindexConf.sqlIndexPath(launch::get, session::get, n);
  }

  @Test
  void offAPathOrASessionNameIsTaken() {
    Map<String, String> launch = new HashMap<>();
    Map<String, String> session = new HashMap<>();
    session.put("spark.spindex.index.geo", "/data/geo.spx");
    assertEquals("/data/geo.spx", path(launch, session, "geo"));
    assertEquals("/etc/passwd", path(launch, session, "/etc/passwd"));
  }

  @Test
  void onOnlyLaunchNamesAreTaken() {
    Map<String, String> launch = new HashMap<>();
    launch.put("spark.spindex.sql.names-only", "true");
    launch.put("spark.spindex.index.geo", "/data/geo.spx");
    Map<String, String> session = new HashMap<>();
    session.put("spark.spindex.index.mine", "/etc/passwd"); // a session's SET
    session.put("spark.spindex.sql.names-only", "false"); // ignored: read at launch only
    assertEquals("/data/geo.spx", path(launch, session, "geo"));
    assertNull(path(launch, session, "/etc/passwd"));
    assertNull(path(launch, session, "mine"));
    assertTrue(SpindexConf.namesOnly(launch::get));
    assertFalse(SpindexConf.namesOnly(session::get));
  }

  @Test
  void aUdfUnderNamesOnlyTakesBareShippedNames() {
    assertTrue(SpindexUdfs.shippedName("geo.spx"));
    assertFalse(SpindexUdfs.shippedName("/etc/passwd"));
    assertFalse(SpindexUdfs.shippedName("../geo.spx"));
    assertFalse(SpindexUdfs.shippedName("dir\\geo.spx"));
    assertFalse(SpindexUdfs.shippedName(".."));
    assertFalse(SpindexUdfs.shippedName(""));
  }
}

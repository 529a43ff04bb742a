/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class ReportTest {
  @Test
  void textAndJsonCarryTheSameFacts() {
    Report r =
        new Report("ip-lookup")
            .put("lines in", 10L)
            .put("ratio", 1.5)
            .put("path", "a\"b\\c\td")
            .table(
                "loads",
                Arrays.asList("executor", "ms"),
                Collections.singletonList(Arrays.<Object>asList("1", 2.25)));
    String text = r.toText();
    assertTrue(text.contains("lines in  10"), text);
    assertTrue(text.contains("  executor  ms"), text);
    assertTrue(text.contains("  1         2.25"), text);
    String json = r.toJson();
    assertTrue(json.contains("\"lines in\": 10"), json);
    assertTrue(json.contains("\"ratio\": 1.500"), json);
    assertTrue(json.contains("\"path\": \"a\\\"b\\\\c\\u0009d\""), json);
    assertTrue(json.contains("{\"executor\": \"1\", \"ms\": 2.250}"), json);
    assertEquals('}', json.trim().charAt(json.trim().length() - 1));
  }
}

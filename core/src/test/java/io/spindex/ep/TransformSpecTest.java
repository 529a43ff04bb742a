/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spindex.ep.feed.EpHeader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A spec is checked at start, and every mistake names the spec line and the step. */
class TransformSpecTest {
  static final EpHeader HEADER =
      EpHeader.of(
          List.of(
              "id",
              "title",
              "price_pc",
              "link",
              "image_link",
              "category_name1",
              "shipping",
              "memo"));

  static String error(String spec) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TransformSpec.parse(spec, Paths.get("."), "t.conf").compile(HEADER));
    return e.getMessage();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "steps = [ { frobnicate = [a] } ]"
            + "|t.conf: 1: step 1 must be an object with one key, the step kind (rename, drop,"
            + " select, reorder, normalize, default, map, filter, require); found keys"
            + " [frobnicate]",
        "steps = [ { drop = [ nope ] } ]"
            + "|t.conf: 1: step 1 (drop): no field 'nope' at this step (fields: id, title,"
            + " price_pc, link, image_link, category_name1, shipping, memo)",
        "steps = [ { drop = [memo] }, { normalize { fields = [memo], ops = [trim] } } ]"
            + "|t.conf: 1: step 2 (normalize): no field 'memo' at this step (fields: id, title,"
            + " price_pc, link, image_link, category_name1, shipping)",
        "steps = [ { normalize { fields = [title], ops = [shout] } } ]"
            + "|t.conf: 1: step 1 (normalize): unknown normaliser 'shout' (known: strip-control,"
            + " trim, collapse-whitespace, digits-only)",
        "steps = [ { rename { title = id } } ]"
            + "|t.conf: 1: step 1 (rename): cannot rename 'title' to 'id': that field exists",
        "steps = [ { default { field = x } } ]"
            + "|t.conf: 1: step 1 (default): give exactly one of 'value' and 'from'",
        "steps = [ { require = strict } ]"
            + "|t.conf: 1: step 1 (require): the only preset is ep-limits, not 'strict'",
        "steps = [ { drop = [memo] }, { select = [id, memo] } ]"
            + "|t.conf: 1: step 2 (select): no field 'memo' at this step (fields: id, title,"
            + " price_pc, link, image_link, category_name1, shipping)",
        "steps = [ { require { title { max-chars = 0 } } } ]"
            + "|t.conf: 1: step 1 (require): title: max-chars must be at least 1, not 0",
        "steps = [ { require { title { longest = 3 } } } ]"
            + "|t.conf: 1: step 1 (require): title: unknown key 'longest' (allowed: chars,"
            + " digits, integer, max-chars, max-items, required)",
        "steps = [ { filter { field = id, index = x.spx, keep = maybe } } ]"
            + "|t.conf: 1: step 1 (filter): keep must be present or absent, not 'maybe'",
        "input { max-line-bytes = 1 }, steps = []"
            + "|t.conf: 1: input.max-line-bytes must be in [16, 67108864], not 1",
        "input { colour = red }, steps = []"
            + "|t.conf: 1: input: unknown key 'colour' (allowed: max-line-bytes, validate-utf8)",
        "stepz = []|t.conf: no 'steps' list (see docs/EP.md)",
        "steps = [ { require = ep-limits } ]"
            + "|t.conf: 1: step 1 (require): ep-limits: the required EP field 'shipping' is"
            + " missing at this step (add it, e.g. with a default step)",
      })
  void clearErrors(String spec, String message) {
    String s =
        spec.contains("ep-limits")
            ? "steps = [ { drop = [shipping] }, { require = ep-limits } ]"
            : spec;
    String m = spec.contains("ep-limits") ? message.replace("step 1", "step 2") : message;
    assertEquals(m, error(s));
  }

  @Test
  void hoconSyntaxErrorsNameTheLine() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TransformSpec.parse("steps = [\n { drop = [ }\n", Paths.get("."), "t.conf"));
    assertEquals(true, e.getMessage().startsWith("bad transform spec: t.conf: 2:"), e.getMessage());
  }

  @Test
  void theExampleSpecLoadsAndCompilesAgainstGeneratedFeeds() throws Exception {
    Path example = Paths.get("..", "conf", "ep-transform.example.conf");
    TransformSpec spec = TransformSpec.load(example);
    EpTransform t = spec.compile(EpHeader.of(io.spindex.gen.EpGenerator.HEADER));
    assertEquals("id", t.outputHeader().names().get(0));
    assertEquals(false, t.outputHeader().has("seller_memo"));
    assertEquals(true, t.outputHeader().has("condition"));
    List<String> kinds =
        List.of("rename", "drop", "normalize", "default", "map", "filter", "require", "reorder");
    for (String k : kinds) {
      assertEquals(
          true,
          spec.stepLabels().stream().anyMatch(l -> l.endsWith(":" + k)),
          "the example covers " + k);
    }
  }
}

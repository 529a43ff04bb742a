/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.ep.feed.EpRow;
import io.spindex.ep.feed.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code { require = ep-limits }} or {@code { require { FIELD { RULE = ARG ... } } }}: rejects a
 * row at the first rule it breaks, with reason {@code RULE:FIELD} (e.g. {@code too-long:title}).
 */
final class Require extends Step {
  /** The EP limits (docs/EP.md): required fields and what their values must look like. */
  static final Map<String, List<Rule>> EP_REQUIRED = new LinkedHashMap<>();

  /** Limits of optional EP fields, checked when the field is present and not empty. */
  static final Map<String, List<Rule>> EP_OPTIONAL = new LinkedHashMap<>();

  static {
    EP_REQUIRED.put(
        "id", Arrays.asList(Rule.required(), Rule.maxChars(50), Rule.chars("A-Za-z0-9-_ ")));
    EP_REQUIRED.put("title", Arrays.asList(Rule.required(), Rule.maxChars(100)));
    EP_REQUIRED.put("price_pc", Arrays.asList(Rule.required(), Rule.integer(1, Integer.MAX_VALUE)));
    EP_REQUIRED.put("link", Arrays.asList(Rule.required(), Rule.maxChars(255)));
    EP_REQUIRED.put("image_link", Arrays.asList(Rule.required(), Rule.maxChars(255)));
    EP_REQUIRED.put("category_name1", Arrays.asList(Rule.required(), Rule.maxChars(50)));
    EP_REQUIRED.put("shipping", Arrays.asList(Rule.required(), Rule.integer(-1, 1_000_000)));
    EP_OPTIONAL.put("price_mobile", Arrays.asList(Rule.integer(1, Integer.MAX_VALUE)));
    EP_OPTIONAL.put("normal_price", Arrays.asList(Rule.integer(1, Integer.MAX_VALUE)));
    EP_OPTIONAL.put("mobile_link", Arrays.asList(Rule.maxChars(255)));
    EP_OPTIONAL.put(
        "add_image_link", Arrays.asList(Rule.maxItems(10, (byte) '|'), Rule.maxChars(2550)));
    EP_OPTIONAL.put("category_name2", Arrays.asList(Rule.maxChars(50)));
    EP_OPTIONAL.put("category_name3", Arrays.asList(Rule.maxChars(50)));
    EP_OPTIONAL.put("category_name4", Arrays.asList(Rule.maxChars(50)));
    EP_OPTIONAL.put("naver_category", Arrays.asList(Rule.digits(8)));
  }

  private final boolean preset;
  private final Map<String, List<Rule>> rules;

  /** The {@code ep-limits} preset. */
  Require(int number, String origin) {
    super(number, "require", origin);
    this.preset = true;
    this.rules = null;
  }

  /** Rules written out in the spec, by field. */
  Require(int number, String origin, Map<String, List<Rule>> rules) {
    super(number, "require", origin);
    this.preset = false;
    this.rules = new LinkedHashMap<>(rules);
  }

  @Override
  RowStep compile(Schema s) {
    List<Integer> slots = new ArrayList<>();
    List<Rule> flat = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    Map<String, List<Rule>> all = new LinkedHashMap<>();
    if (preset) {
      for (String f : EP_REQUIRED.keySet()) {
        if (!s.has(f)) {
          throw new IllegalArgumentException(
              where
                  + ": ep-limits: the required EP field '"
                  + f
                  + "' is missing at this step (add it, e.g. with a default step)");
        }
      }
      all.putAll(EP_REQUIRED);
      EP_OPTIONAL.forEach(
          (f, r) -> {
            if (s.has(f)) {
              all.put(f, r);
            }
          });
    } else {
      all.putAll(rules);
    }
    all.forEach(
        (field, list) -> {
          int slot = s.slot(field, where);
          for (Rule r : list) {
            slots.add(slot);
            flat.add(r);
            fields.add(field);
          }
        });
    int[] slotOf = slots.stream().mapToInt(Integer::intValue).toArray();
    Rule[] ruleOf = flat.toArray(new Rule[0]);
    String[] fieldOf = fields.toArray(new String[0]);
    int[] passesUpTo = new int[ruleOf.length];
    for (int i = 0; i < ruleOf.length; i++) {
      passesUpTo[i] = ruleOf[i].passesUpTo();
    }
    return new RowStep(label()) {
      @Override
      int apply(EpRow row, Verdict v) {
        for (int i = 0; i < ruleOf.length; i++) {
          int slot = slotOf[i];
          int len = row.length(slot);
          Rule r = ruleOf[i];
          if (len == 0 ? r.skipsEmpty() : len <= passesUpTo[i]) {
            continue;
          }
          String problem = r.check(row.array(slot), row.from(slot), row.to(slot));
          if (problem != null) {
            return v.reject(r.reasonFor(problem) + ":" + fieldOf[i], problem);
          }
        }
        return UNCHANGED;
      }
    };
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkIllegalArgumentException;
import org.apache.spark.SparkRuntimeException;
import org.apache.spark.SparkThrowable;
import org.apache.spark.SparkThrowableHelper;
import org.apache.spark.SparkThrowableHelper$;
import org.apache.spark.sql.AnalysisException;
import org.junit.jupiter.api.Test;

/**
 * Spindex's error conditions as Spark's: their file is in Spark's format, every SQLSTATE is one
 * Spark lists, Spark's registry knows them once registered, every message stays one line of at most
 * 400 characters whatever its values, docs/SPARK.md lists them all, and the exceptions are Spark's
 * types.
 */
class SparkErrorsTest {
  private static final Pattern PARAM = Pattern.compile("<([a-zA-Z0-9_-]+)>");

  /** The placeholders of a condition's template, in order, as Spark's reader finds them. */
  private static List<String> placeholders(String condition) {
    List<String> names = new ArrayList<>();
    Matcher m = PARAM.matcher(SparkErrors.template(condition));
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /**
   * The longest value of each parameter Spindex fills itself (function names, counts, kinds):
   * whatever a query gives, these stay as they are.
   */
  private static final Map<String, String> OWN = new LinkedHashMap<>();

  static {
    OWN.put("function", "try_spindex_contains");
    OWN.put("tryFunction", "try_spindex_contains");
    OWN.put("expected", "2 arguments (ip, index)");
    OWN.put("actual", "2147483647");
    OWN.put("needed", "a range index");
    OWN.put("kind", "an IP range index");
  }

  /**
   * Parameters for every placeholder of {@code condition}: {@code value} for each a query or a file
   * gives, the longest {@link #OWN} value for the others.
   */
  private static Map<String, String> all(String condition, String value) {
    List<String> kv = new ArrayList<>();
    for (String p : placeholders(condition)) {
      kv.add(p);
      kv.add(OWN.getOrDefault(p, value));
    }
    return SparkErrors.params(kv.toArray(new String[0]));
  }

  /**
   * The SQLSTATEs Spark lists: error/error-states.json (Spark 4), or the table of error/README.md
   * (Spark 3.5), from Spark's own jar.
   */
  private static Set<String> sparkSqlStates() throws IOException {
    ClassLoader spark = SparkThrowableHelper.class.getClassLoader();
    Set<String> states = new HashSet<>();
    try (InputStream json = spark.getResourceAsStream("error/error-states.json")) {
      if (json != null) {
        String text = new String(json.readAllBytes(), StandardCharsets.UTF_8);
        Matcher m =
            Pattern.compile("^\\s+\"([0-9A-Z]{5})\"\\s*:\\s*\\{", Pattern.MULTILINE).matcher(text);
        while (m.find()) {
          states.add(m.group(1));
        }
        return states;
      }
    }
    try (InputStream md = spark.getResourceAsStream("error/README.md")) {
      assertNotNull(md, "Spark lists its SQLSTATEs in error/error-states.json or error/README.md");
      String text = new String(md.readAllBytes(), StandardCharsets.UTF_8);
      Matcher m = Pattern.compile("^\\|([0-9A-Z]{5})\\s*\\|", Pattern.MULTILINE).matcher(text);
      while (m.find()) {
        states.add(m.group(1));
      }
    }
    return states;
  }

  @Test
  void everyConditionIsInSparksFormatWithASqlStateSparkLists() throws IOException {
    Set<String> states = sparkSqlStates();
    assertTrue(states.size() > 100, "Spark's SQLSTATE list: " + states.size());
    List<String> conditions = SparkErrors.conditions();
    assertEquals(17, conditions.size(), conditions.toString());
    for (String c : conditions) {
      assertTrue(c.matches("SPINDEX_[A-Z_]+"), c);
      assertTrue(states.contains(SparkErrors.sqlState(c)), c + ": " + SparkErrors.sqlState(c));
      List<String> p = placeholders(c);
      // Spark's rule (checked by its reader in its own tests): one parameter per placeholder.
      assertEquals(new HashSet<>(p).size(), p.size(), c + " repeats a placeholder: " + p);
      assertTrue(p.contains("function"), c + " names the function");
      assertFalse(SparkErrors.template(c).contains("\n"), c);
    }
  }

  @Test
  void sparksRegistryKnowsThemOnceRegistered() {
    assertTrue(SparkErrors.register(), "registered with this Spark");
    for (String c : SparkErrors.conditions()) {
      assertEquals(
          SparkErrors.template(c),
          SparkThrowableHelper$.MODULE$.errorReader().getMessageTemplate(c),
          c);
      assertEquals(SparkErrors.sqlState(c), SparkThrowableHelper.getSqlState(c), c);
      String m = SparkThrowableHelper.getMessage(c, SparkErrors.scala(all(c, "v")), "");
      assertTrue(m.startsWith("[" + c + "] "), m);
      assertEquals(SparkErrors.message(c, all(c, "v")), m);
    }
    // Spark's own conditions are still there.
    assertEquals("22018", SparkThrowableHelper.getSqlState("CAST_INVALID_INPUT"));
  }

  @Test
  void everyMessageIsOneLineOfAtMost400CharactersWhateverItsValues() {
    String huge = "a\tb\nc" + String.join("", Collections.nCopies(1_000_000, "x"));
    for (String c : SparkErrors.conditions()) {
      Map<String, String> p = all(c, huge);
      for (String m :
          new String[] {
            SparkErrors.message(c, p), SparkErrors.runtime(c, p, null).getMessage(),
          }) {
        assertTrue(m.length() <= 400, c + ": " + m.length() + " characters: " + m);
        assertFalse(m.contains("\n"), m);
        if (!OWN.keySet().containsAll(placeholders(c))) {
          assertTrue(m.contains("a\\tb\\nc"), "control characters escaped: " + m);
          assertTrue(m.contains("...(1000005 chars)"), "the whole length given: " + m);
        }
      }
    }
    // An address value: the text or the bytes cut, in the literal's quotes.
    String z = Unparseable.text(String.join("", Collections.nCopies(1_000_000, "z")));
    assertEquals("'" + "z".repeat(40) + "...(1000000 chars)'", z);
    assertEquals("'it\\'s'", Unparseable.text("it's"));
    byte[] bytes = new byte[1_000_000];
    bytes[0] = 1;
    assertEquals("X'01" + "00".repeat(19) + "...(1000000 bytes)'", Unparseable.text(bytes));
    assertEquals("X'0102030405'", Unparseable.text(new byte[] {1, 2, 3, 4, 5}));
    RuntimeException e = SparkErrors.invalidAddress("spindex_label", z, huge);
    assertTrue(e.getMessage().length() <= 400, e.getMessage());
  }

  /**
   * docs/SPARK.md's table of errors lists every condition with its SQLSTATE, and nothing else: the
   * documentation a user reads is the file the jar registers.
   */
  @Test
  void theDocsListEveryConditionWithItsSqlState() throws IOException {
    Path d = Paths.get("").toAbsolutePath();
    while (d != null && !Files.exists(d.resolve("mvnw"))) {
      d = d.getParent();
    }
    assertNotNull(d, "the repository");
    String docs =
        new String(Files.readAllBytes(d.resolve("docs/SPARK.md")), StandardCharsets.UTF_8);
    Matcher m =
        Pattern.compile("^\\| `(SPINDEX_[A-Z_]+)` \\| ([0-9A-Z]{5}) \\|", Pattern.MULTILINE)
            .matcher(docs);
    Map<String, String> documented = new TreeMap<>();
    while (m.find()) {
      documented.put(m.group(1), m.group(2));
    }
    Map<String, String> registered = new TreeMap<>();
    for (String c : SparkErrors.conditions()) {
      registered.put(c, SparkErrors.sqlState(c));
    }
    assertEquals(registered, documented);
  }

  @SuppressWarnings("deprecation") // getErrorClass: the one name of the condition on every line
  @Test
  void theyAreSparksExceptionTypes() throws Exception {
    Map<String, String> p = SparkErrors.params("function", "f", "path", "/p", "reason", "r");
    RuntimeException rt = SparkErrors.runtime(SparkErrors.NOT_AN_INDEX, p, new IOException("io"));
    assertTrue(rt instanceof SparkRuntimeException, rt.getClass().getName());
    assertEquals(SparkErrors.NOT_AN_INDEX, ((SparkThrowable) rt).getErrorClass());
    assertEquals("22000", ((SparkThrowable) rt).getSqlState());
    assertEquals(p, ((SparkThrowable) rt).getMessageParameters());
    assertEquals("io", rt.getCause().getMessage());

    RuntimeException ia =
        SparkErrors.illegalArgument(
            SparkErrors.INDEX_PATH_REFUSED, SparkErrors.params("function", "f", "index", "/p"));
    assertTrue(ia instanceof SparkIllegalArgumentException, ia.getClass().getName());
    assertEquals("42501", ((SparkThrowable) ia).getSqlState());

    Throwable an = null;
    try {
      throw SparkErrors.analysis(SparkErrors.INDEX_NULL, SparkErrors.params("function", "f"), null);
    } catch (Throwable t) {
      an = t;
    }
    assertTrue(an instanceof AnalysisException, String.valueOf(an));
    assertEquals(SparkErrors.INDEX_NULL, ((SparkThrowable) an).getErrorClass());
    assertEquals("22004", ((SparkThrowable) an).getSqlState());
    assertTrue(an.getMessage().startsWith("[SPINDEX_INDEX_NULL] f: the index is NULL"));

    // From an executor to the driver: Java serialization keeps condition, parameters, message.
    RuntimeException ie = SparkErrors.invalidAddress("spindex_ip", "'x'", "c");
    assertTrue(ie instanceof InvalidAddressException);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(ie);
    }
    Object back;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      back = in.readObject();
    }
    InvalidAddressException b = (InvalidAddressException) back;
    assertEquals("SPINDEX_INVALID_ADDRESS", b.getCondition());
    assertEquals("22018", b.getSqlState());
    assertEquals(ie.getMessage(), b.getMessage());
    Map<String, String> want = new LinkedHashMap<>();
    want.put("function", "spindex_ip");
    want.put("value", "'x'");
    want.put("column", "c");
    want.put("tryFunction", "try_spindex_ip");
    assertEquals(want, b.getMessageParameters());
  }

  /** Where Spark's registry cannot take them: the condition and message stay. */
  @SuppressWarnings("deprecation")
  @Test
  void unregisteredTheyKeepConditionStateAndMessage() {
    Map<String, String> p = SparkErrors.params("function", "f", "name", "city");
    SparkErrors.Unregistered u =
        new SparkErrors.Unregistered(SparkErrors.INDEX_NOT_SHIPPED, p, null);
    assertEquals("SPINDEX_INDEX_NOT_SHIPPED", u.getErrorClass());
    assertEquals("SPINDEX_INDEX_NOT_SHIPPED", u.getCondition());
    assertEquals("42704", u.getSqlState());
    assertEquals(p, u.getMessageParameters());
    assertEquals(
        "[SPINDEX_INDEX_NOT_SHIPPED] f: no index named 'city' was shipped with --files."
            + " SQLSTATE: 42704",
        u.getMessage());
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public classes of the core jar, against {@code public-api.txt}: the API grows (or shrinks)
 * only on purpose, by a change that edits that list too. To see the current list, run this test and
 * read the failure, or {@code javap} the jar.
 */
class PublicApiTest {
  @Test
  void thePublicClassesAreTheListedOnes() throws Exception {
    Path classes =
        Paths.get(
            io.spindex.Spindex.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> found = new ArrayList<>();
    try (Stream<Path> s = Files.walk(classes)) {
      for (Path p : s.filter(f -> f.toString().endsWith(".class")).collect(Collectors.toList())) {
        String name =
            classes.relativize(p).toString().replace('/', '.').replaceAll("\\.class$", "");
        if (name.matches(".*\\$\\d.*")) {
          continue; // anonymous and local classes
        }
        Class<?> c = Class.forName(name, false, getClass().getClassLoader());
        if (isPublic(c)) {
          found.add(name);
        }
      }
    }
    found.sort(null);
    assertEquals(
        listed(), found, "the public classes of the core (src/test/resources/public-api.txt)");
  }

  private static boolean isPublic(Class<?> c) {
    for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
      if (!Modifier.isPublic(k.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  private static List<String> listed() throws IOException, URISyntaxException {
    Path list = Paths.get(PublicApiTest.class.getResource("/public-api.txt").toURI());
    List<String> names = new ArrayList<>();
    for (String l : Files.readAllLines(list, StandardCharsets.UTF_8)) {
      if (!l.isBlank() && !l.startsWith("#")) {
        names.add(l.trim());
      }
    }
    return names;
  }
}

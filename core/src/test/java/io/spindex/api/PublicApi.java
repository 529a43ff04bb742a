/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A jar's API held to its list: the public classes of its main code not marked {@link Internal},
 * one per line, sorted. The API grows (or shrinks) only on purpose, by a change that edits the list
 * too; and it does not leak: no public member of an API class names an internal type unless the
 * member is itself marked {@link Internal}, and no API class can be extended by users. Each jar's
 * test calls it (the core's {@code PublicApiTest}, and one in every job module); to see the current
 * list, run the test and read the failure.
 */
public final class PublicApi {
  private PublicApi() {}

  /**
   * Asserts that the API of the main classes beside {@code anchor} (its classes directory, or jar)
   * is the list in the test resource {@code list}.
   *
   * @param anchor a class of the jar's main code
   * @param list the list's resource name, e.g. {@code /public-api.txt}
   */
  public static void assertListed(Class<?> anchor, String list) throws Exception {
    Path classes = Paths.get(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> found = new ArrayList<>();
    try (Stream<Path> s = Files.walk(classes)) {
      for (Path p : s.filter(f -> f.toString().endsWith(".class")).collect(Collectors.toList())) {
        String name =
            classes.relativize(p).toString().replace('/', '.').replaceAll("\\.class$", "");
        if (name.matches(".*\\$\\d.*")) {
          continue; // anonymous and local classes
        }
        Class<?> c = Class.forName(name, false, anchor.getClassLoader());
        if (isPublic(c)) {
          found.add(name);
        }
      }
    }
    List<String> api = new ArrayList<>();
    List<String> leaks = new ArrayList<>();
    for (String name : found) {
      Class<?> c = Class.forName(name, false, anchor.getClassLoader());
      if (isInternal(c)) {
        continue;
      }
      api.add(name);
      if (!c.isInterface()
          && !c.isEnum()
          && !Modifier.isFinal(c.getModifiers())
          && Stream.of(c.getDeclaredConstructors())
              .anyMatch(k -> Modifier.isPublic(k.getModifiers()))) {
        leaks.add(name + " can be extended by users (not final, public constructor)");
      }
      for (Member m : members(c)) {
        if (((AnnotatedElement) m).isAnnotationPresent(Internal.class)) {
          continue;
        }
        for (Class<?> t : typesOf(m)) {
          while (t.isArray()) {
            t = t.getComponentType();
          }
          if (t.getName().startsWith("io.spindex.") && isInternal(t)) {
            leaks.add(name + "#" + m.getName() + " names the internal " + t.getName());
          }
        }
      }
    }
    api.sort(null);
    assertEquals(listed(list), api, "the API of " + classes + " (src/test/resources" + list + ")");
    assertEquals(List.of(), leaks, "public members of API classes that name internal types");
  }

  private static boolean isInternal(Class<?> c) {
    for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
      if (k.isAnnotationPresent(Internal.class)) {
        return true;
      }
    }
    return false;
  }

  private static List<Member> members(Class<?> c) {
    List<Member> out = new ArrayList<>();
    Stream.of(c.getDeclaredMethods())
        .filter(m -> !m.isSynthetic() && isVisible(m.getModifiers()))
        .forEach(out::add);
    Stream.of(c.getDeclaredConstructors())
        .filter(k -> isVisible(k.getModifiers()))
        .forEach(out::add);
    Stream.of(c.getDeclaredFields())
        .filter(f -> !f.isSynthetic() && isVisible(f.getModifiers()))
        .forEach(out::add);
    return out;
  }

  private static boolean isVisible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static List<Class<?>> typesOf(Member m) {
    List<Type> types = new ArrayList<>();
    if (m instanceof Method) {
      Method method = (Method) m;
      types.add(method.getGenericReturnType());
      types.addAll(List.of(method.getGenericParameterTypes()));
      types.addAll(List.of(method.getGenericExceptionTypes()));
    } else if (m instanceof Constructor) {
      Constructor<?> k = (Constructor<?>) m;
      types.addAll(List.of(k.getGenericParameterTypes()));
      types.addAll(List.of(k.getGenericExceptionTypes()));
    } else {
      types.add(((Field) m).getGenericType());
    }
    List<Class<?>> classes = new ArrayList<>();
    types.forEach(t -> classesIn(t, classes));
    return classes;
  }

  /** The classes a type names, type arguments, bounds and array components included. */
  private static void classesIn(Type t, List<Class<?>> out) {
    if (t instanceof Class) {
      out.add((Class<?>) t);
    } else if (t instanceof ParameterizedType) {
      classesIn(((ParameterizedType) t).getRawType(), out);
      for (Type a : ((ParameterizedType) t).getActualTypeArguments()) {
        classesIn(a, out);
      }
    } else if (t instanceof GenericArrayType) {
      classesIn(((GenericArrayType) t).getGenericComponentType(), out);
    } else if (t instanceof WildcardType) {
      Stream.of(((WildcardType) t).getUpperBounds()).forEach(b -> classesIn(b, out));
      Stream.of(((WildcardType) t).getLowerBounds()).forEach(b -> classesIn(b, out));
    } else if (t instanceof TypeVariable) {
      Stream.of(((TypeVariable<?>) t).getBounds()).forEach(b -> classesIn(b, out));
    }
  }

  private static boolean isPublic(Class<?> c) {
    for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
      if (!Modifier.isPublic(k.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  private static List<String> listed(String resource) throws IOException, URISyntaxException {
    java.net.URL url = PublicApi.class.getResource(resource);
    if (url == null) {
      throw new AssertionError("no list " + resource + " on the test classpath");
    }
    List<String> names = new ArrayList<>();
    for (String l : Files.readAllLines(Paths.get(url.toURI()), StandardCharsets.UTF_8)) {
      if (!l.isBlank() && !l.startsWith("#")) {
        names.add(l.trim());
      }
    }
    return names;
  }
}

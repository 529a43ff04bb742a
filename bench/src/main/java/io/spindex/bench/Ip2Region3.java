/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * ip2region 3.x, the release line with IPv6 ({@code org.lionsoul:ip2region} 3.1.0 on Maven Central,
 * Java 8 bytecode), beside the 2.7.0 that the IPv4 benchmarks measure. Both releases have the same
 * class names ({@code org.lionsoul.ip2region.xdb.Searcher}) and Maven resolves one version per
 * module, so the build copies the 3.x jar into the benchmark jar as a resource ({@code
 * ip2region3/ip2region.jar}, see {@code bench/pom.xml}) and this class loads it in a class loader
 * of its own. Its methods are called through method handles held in {@code static final} fields:
 * the JIT treats those as constants and inlines the library's {@code search} as it would a direct
 * call, so the lookups measured are the library's own.
 */
final class Ip2Region3 {
  /** The release loaded, from the jar's Maven properties. */
  static final String VERSION;

  private static final MethodHandle SEARCH;
  private static final MethodHandle LOAD_HEADER;
  private static final MethodHandle VERSION_OF_HEADER;
  private static final MethodHandle LOAD_CONTENT;
  private static final MethodHandle NEW_WITH_BUFFER;
  private static final MethodHandle VERIFY;

  static {
    try {
      JarLoader loader = new JarLoader(resource("/ip2region3/ip2region.jar"));
      Properties p = new Properties();
      p.load(
          new ByteArrayInputStream(
              loader.resources.get("META-INF/maven/org.lionsoul/ip2region/pom.properties")));
      VERSION = p.getProperty("version");
      Class<?> searcher = loader.loadClass("org.lionsoul.ip2region.xdb.Searcher");
      Class<?> header = loader.loadClass("org.lionsoul.ip2region.xdb.Header");
      Class<?> version = loader.loadClass("org.lionsoul.ip2region.xdb.Version");
      Class<?> content = loader.loadClass("org.lionsoul.ip2region.xdb.LongByteArray");
      MethodHandles.Lookup l = MethodHandles.publicLookup();
      SEARCH =
          l.findVirtual(searcher, "search", MethodType.methodType(String.class, byte[].class))
              .asType(MethodType.methodType(String.class, Object.class, byte[].class));
      LOAD_HEADER =
          l.findStatic(searcher, "loadHeaderFromFile", MethodType.methodType(header, String.class))
              .asType(MethodType.methodType(Object.class, String.class));
      VERSION_OF_HEADER =
          l.findStatic(version, "fromHeader", MethodType.methodType(version, header))
              .asType(MethodType.methodType(Object.class, Object.class));
      LOAD_CONTENT =
          l.findStatic(
                  searcher, "loadContentFromFile", MethodType.methodType(content, String.class))
              .asType(MethodType.methodType(Object.class, String.class));
      NEW_WITH_BUFFER =
          l.findStatic(searcher, "newWithBuffer", MethodType.methodType(searcher, version, content))
              .asType(MethodType.methodType(Object.class, Object.class, Object.class));
      VERIFY =
          l.findStatic(searcher, "verifyFromFile", MethodType.methodType(void.class, String.class));
    } catch (IOException | ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private Ip2Region3() {}

  /**
   * A searcher over the whole file in memory (content mode, {@code loadContentFromFile} + {@code
   * newWithBuffer}: ip2region's fastest), for the IP version the file's header names.
   */
  static Object openContent(Path xdb) throws IOException {
    try {
      Object version = VERSION_OF_HEADER.invokeExact(LOAD_HEADER.invokeExact(xdb.toString()));
      return NEW_WITH_BUFFER.invokeExact(version, LOAD_CONTENT.invokeExact(xdb.toString()));
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IOException(e);
    }
  }

  /** The library's own check of an xdb file ({@code Searcher.verifyFromFile}). */
  static void verify(Path xdb) throws IOException {
    try {
      VERIFY.invokeExact(xdb.toString());
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IOException(e);
    }
  }

  /** {@code searcher.search(ip)}: the region of the address (4 or 16 bytes, network order). */
  static String search(Object searcher, byte[] ip) throws IOException {
    try {
      return (String) SEARCH.invokeExact(searcher, ip);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IOException(e);
    }
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = Ip2Region3.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException(
            "no " + name + " on the class path: build the bench module with Maven (bench/pom.xml)");
      }
      return in.readAllBytes();
    }
  }

  /** Defines the classes of one jar held in memory; parent: the platform class loader only. */
  private static final class JarLoader extends ClassLoader {
    final Map<String, byte[]> classes = new HashMap<>();
    final Map<String, byte[]> resources = new HashMap<>();

    JarLoader(byte[] jar) throws IOException {
      super("ip2region-3", ClassLoader.getPlatformClassLoader());
      try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
        for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
          if (e.isDirectory()) {
            continue;
          }
          ByteArrayOutputStream b = new ByteArrayOutputStream();
          in.transferTo(b);
          String name = e.getName();
          if (name.endsWith(".class")) {
            String cls = name.substring(0, name.length() - 6).replace('/', '.');
            classes.put(cls, b.toByteArray());
          } else {
            resources.put(name, b.toByteArray());
          }
        }
      }
      if (!resources.containsKey("META-INF/maven/org.lionsoul/ip2region/pom.properties")) {
        throw new IOException("not an ip2region jar: no Maven properties in it");
      }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      byte[] b = classes.get(name);
      if (b == null) {
        throw new ClassNotFoundException(name);
      }
      return defineClass(name, b, 0, b.length);
    }
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * No package cycles in a module's main code: every {@code io.spindex} package of the module (the
 * root package included, which {@code slices().matching("io.spindex.(**)")} would leave out) is a
 * slice, and the slices must be free of cycles. Dependencies are what the class files say: imports,
 * fully qualified names, annotations, signatures. Shared by the modules' tests through the core
 * test-jar.
 */
public final class PackageCycles {
  private PackageCycles() {}

  /** Each {@code io.spindex} package is its own slice; other classes are not looked at. */
  private static final SliceAssignment PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
          String p = c.getPackageName();
          return p.equals("io.spindex") || p.startsWith("io.spindex.")
              ? SliceIdentifier.of(p)
              : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
          return "io.spindex packages";
        }
      };

  /**
   * Fails, listing every cycle, when the main classes of the module that holds {@code anyMainClass}
   * (its classes directory or jar, never the tests) have a package cycle.
   */
  public static void assertNone(Class<?> anyMainClass) {
    Path classes;
    try {
      classes = Paths.get(anyMainClass.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    JavaClasses imported = new ClassFileImporter().importPath(classes);
    if (imported.isEmpty()) {
      throw new AssertionError("no classes found in " + classes);
    }
    slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(imported);
  }
}

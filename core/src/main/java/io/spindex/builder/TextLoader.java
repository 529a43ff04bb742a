/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;

/**
 * The {@code text} loader strategy: parses the source text itself (what a job does without an
 * index), through the same parsers and builders as {@code spindex build}, into the same index
 * objects. The path given to {@link #load} is the source text, not an index.
 */
@Internal
public final class TextLoader implements IndexLoader {
  private final boolean ranges;
  private final IpRangeBuilder rangeBuilder;
  private final ProductIndexBuilder productBuilder;

  private TextLoader(
      boolean ranges, IpRangeBuilder rangeBuilder, ProductIndexBuilder productBuilder) {
    this.ranges = ranges;
    this.rangeBuilder = rangeBuilder;
    this.productBuilder = productBuilder;
  }

  /** Loads an IP list. */
  public static TextLoader ips() {
    return new TextLoader(false, null, null);
  }

  /** Loads range text with the given builder's delimiter and overlap policy. */
  public static TextLoader ranges(IpRangeBuilder builder) {
    return new TextLoader(true, builder, null);
  }

  /** Loads a full EP feed with the given builder's settings (extra int fields, line cap). */
  public static TextLoader products(ProductIndexBuilder builder) {
    return new TextLoader(false, null, builder);
  }

  @Override
  public String loaderName() {
    return "text";
  }

  @Override
  public SpindexIndex load(Path source) throws IOException {
    if (productBuilder != null) {
      return productBuilder.buildInMemory(Collections.singletonList(source));
    }
    return ranges
        ? rangeBuilder.buildInMemory(Collections.singletonList(source))
        : new IpSetBuilder().buildInMemory(Collections.singletonList(source));
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.builder.ProductIndexBuilder;
import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.JobArgs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code spindex build products}: a full EP feed to a product index. */
@Command(
    name = "products",
    mixinStandardHelpOptions = true,
    description = {
      "Build a product index from full EP files (UTF-8 TSV, header line first): per product id"
          + " (64-bit hash, collisions fail the build naming both ids) price_pc, shipping, a"
          + " content hash of the row and any --int-field; the id text for ep-diff's D rows."
    })
final class BuildProductsCommand implements Callable<Integer> {
  @CommandLine.Mixin BuildCommand.Common common;

  @Option(
      names = "--int-field",
      paramLabel = "FIELD",
      description = "Also store this field as an int column (repeatable), e.g. review_count.")
  List<String> intFields = new ArrayList<>();

  @Option(
      names = "--max-line-bytes",
      defaultValue = "65536",
      description = "Longest accepted line in bytes (default 65536).")
  int maxLineBytes;

  @Option(names = "--threads", description = "Parser threads (default: all processors).")
  Integer threads;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    JobArgs o =
        common.definition(
            "products",
            "int-field",
            intFields.isEmpty() ? null : String.join(",", intFields),
            "max-line-bytes",
            String.valueOf(maxLineBytes));
    ProductIndexBuilder b = BuildIndexDefinition.productBuilder(o);
    return common.run(spec, b.threads(EpCommand.threads(threads)));
  }
}

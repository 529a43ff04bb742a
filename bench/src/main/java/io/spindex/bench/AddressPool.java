/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

/**
 * Pre-generated lookup keys walked in batches: each invocation takes the next {@link #BATCH} of a
 * pool much larger than the caches, so lookups do not keep hitting the same warm tree paths.
 */
final class AddressPool {
  /** Lookups per benchmark invocation (the {@code @OperationsPerInvocation} of lookup methods). */
  static final int BATCH = 1024;

  /** Pool size: 2^18 addresses, a power of two for the wrap-around mask. */
  static final int SIZE = 1 << 18;

  final int[] addresses;
  private int cursor;

  AddressPool(int[] addresses) {
    if (addresses.length != SIZE) {
      throw new IllegalArgumentException("pool must hold " + SIZE + " addresses");
    }
    this.addresses = addresses;
  }

  /** Start of the next batch in {@link #addresses}. */
  int next() {
    int from = cursor;
    cursor = (cursor + BATCH) & (SIZE - 1);
    return from;
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

/**
 * A loaded, read-only index: {@link IpSet}, {@link IpRanges} or {@link ProductIndex}. Every loader
 * returns the same types with the same answers; only where the data lives differs (heap arrays or a
 * mapping).
 *
 * <p>IPv4 addresses are passed as the 32 bits of the address in network order, as an {@code int}
 * ({@code 1.2.3.4} is {@code 0x01020304}; addresses from 128.0.0.0 up are negative ints); IPv6
 * addresses as two {@code long}s, the high and the low 64 bits in network order ({@code
 * 2001:db8::1} is {@code hi = 0x20010db800000000L, lo = 1}). All lookups are thread-safe and
 * allocate nothing.
 */
public abstract class SpindexIndex {
  private final IndexHeader header;
  private final String loader;

  SpindexIndex(IndexHeader header, String loader) {
    this.header = header;
    this.loader = loader;
  }

  /** Header of the file this index was loaded from (kind, counts, source digest, sections). */
  public IndexHeader header() {
    return header;
  }

  public IndexKind kind() {
    return header.kind();
  }

  /** The name of the loader strategy that produced this object ({@code io}, {@code nio}, ...). */
  public String loader() {
    return loader;
  }

  /** Rows: addresses of a set, ranges of a range index, products of a product index. */
  public abstract int size();

  /** This index as a set; fails with a message naming the file when it is not one. */
  public IpSet asSet() {
    throw new IllegalStateException(
        header.file() + " is " + kind().description() + ", not an IP set index");
  }

  /** This index as ranges; fails with a message naming the file when it is not one. */
  public IpRanges asRanges() {
    throw new IllegalStateException(
        header.file() + " is " + kind().description() + ", not an IP range index");
  }

  /** This index as a product index; fails with a message naming the file when it is not one. */
  public ProductIndex asProducts() {
    throw new IllegalStateException(
        header.file() + " is " + kind().description() + ", not a product index");
  }

  /**
   * Whether an IPv6 address is IPv4-mapped, {@code ::ffff:a.b.c.d} ({@code (int) lo} is a.b.c.d).
   */
  public static boolean isIpv4Mapped(long hi, long lo) {
    return hi == 0 && (lo >>> 32) == 0xFFFFL;
  }
}

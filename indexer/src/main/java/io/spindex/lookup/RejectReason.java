/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.text.Ipv4Text;

/**
 * Why a line of job input has no address to look up. Every rejected line is written to the rejects
 * output with one of these names and counted under it; nothing is dropped silently.
 */
public enum RejectReason {
  /** The line is empty or only white space. */
  BLANK_LINE("blank-line"),
  /** Field mode: the line has fewer fields than the IP field index needs. */
  MISSING_FIELD("missing-field"),
  /** Field mode: the field is not a dotted quad (includes an empty field and {@code -}). */
  NOT_IPV4("not-ipv4"),
  /** Field mode: a dotted quad with an octet over 255. */
  OCTET_OUT_OF_RANGE("octet-out-of-range"),
  /** Field mode: an octet with a leading zero, which readers disagree on (octal or decimal). */
  LEADING_ZERO("leading-zero"),
  /** Field mode: IPv6 text; the IPv6 index kinds are not there yet. */
  IPV6("ipv6-unsupported"),
  /** Scan mode: no dotted quad anywhere on the line. */
  NO_IPV4_FOUND("no-ipv4-found");

  private static final RejectReason[] VALUES = values();

  private final String label;

  RejectReason(String label) {
    this.label = label;
  }

  /** The name written to rejects outputs, counters and summaries, e.g. {@code not-ipv4}. */
  public String label() {
    return label;
  }

  /** The negative code {@link IpLocator#locate} returns for this reason. */
  public long code() {
    return -1L - ordinal();
  }

  /** The reason for a negative {@link IpLocator#locate} result. */
  public static RejectReason ofCode(long code) {
    if (code >= 0 || code < -VALUES.length) {
      throw new IllegalArgumentException("not a reject code: " + code);
    }
    return VALUES[(int) (-1L - code)];
  }

  /** The reason for a negative {@link Ipv4Text#parse} result. */
  static RejectReason ofParse(long parseCode) {
    if (parseCode == Ipv4Text.OCTET_OUT_OF_RANGE) {
      return OCTET_OUT_OF_RANGE;
    } else if (parseCode == Ipv4Text.LEADING_ZERO) {
      return LEADING_ZERO;
    } else if (parseCode == Ipv4Text.IPV6) {
      return IPV6;
    }
    return NOT_IPV4;
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.annotations.Internal;
import io.spindex.text.AddressText;

/**
 * Why a line of job input has no address to look up. Every rejected line is written to the rejects
 * output with one of these names and counted under it; nothing is dropped silently.
 */
@Internal
public enum RejectReason {
  /** The line is empty or only white space. */
  BLANK_LINE("blank-line"),
  /** Field mode: the line has fewer fields than the IP field index needs. */
  MISSING_FIELD("missing-field"),
  /** Field mode: the field has no colon and is not a dotted quad (e.g. {@code -}). */
  NOT_IPV4("not-ipv4"),
  /** Field mode: a dotted quad with an octet over 255. */
  OCTET_OUT_OF_RANGE("octet-out-of-range"),
  /** Field mode: an octet with a leading zero, which readers disagree on (octal or decimal). */
  LEADING_ZERO("leading-zero"),
  /**
   * Field mode: a field with a colon that is no IPv6 address ({@code [addr]:port} and {@code
   * a.b.c.d:port} are addresses).
   */
  NOT_IPV6("not-ipv6"),
  /** Field mode: an IPv6 address with a zone id ({@code fe80::1%eth0}): no index holds zones. */
  ZONE_ID("zone-id"),
  /** Field mode: IPv6 text with more than one {@code ::}. */
  DOUBLE_COLON_TWICE("double-colon-twice"),
  /** Field mode: an IPv6 group of more than 4 hex digits. */
  GROUP_TOO_LONG("group-too-long"),
  /** Field mode: IPv6 text with too few or too many groups. */
  WRONG_GROUP_COUNT("wrong-group-count"),
  /** Field mode: a dotted quad inside IPv6 text anywhere but in its last 32 bits. */
  IPV4_NOT_LAST("ipv4-not-last"),
  /** Field mode: IPv6 text ending in an invalid dotted quad. */
  BAD_EMBEDDED_IPV4("bad-embedded-ipv4"),
  /** Scan mode: no IPv4 or IPv6 address anywhere on the line. */
  NO_IP_FOUND("no-ip-found"),
  /** Field mode: the field is empty (nothing, white space, or {@code ""}). */
  EMPTY_FIELD("empty-field");

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

  /**
   * The reason for a negative {@link AddressText#parse} result: the one of the same name. (With
   * {@link AddressText#LOOKUP}, the reader gives no other codes; any other reads as {@code
   * not-ipv6}.)
   */
  static RejectReason ofAddress(long parseCode) {
    int i = (int) (-1 - parseCode);
    return parseCode < 0 && i < BY_PARSE_CODE.length ? BY_PARSE_CODE[i] : NOT_IPV6;
  }

  /** {@link #ofAddress} of code {@code -1 - i}, looked up by name once. */
  private static final RejectReason[] BY_PARSE_CODE = new RejectReason[64];

  static {
    for (int i = 0; i < BY_PARSE_CODE.length; i++) {
      String reason = AddressText.reason(-1L - i);
      BY_PARSE_CODE[i] = NOT_IPV6;
      for (RejectReason r : VALUES) {
        if (r.label.equals(reason)) {
          BY_PARSE_CODE[i] = r;
        }
      }
    }
  }
}

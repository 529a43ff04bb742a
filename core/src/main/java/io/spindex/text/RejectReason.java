/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;
import java.util.List;

/**
 * Why a line or an address field was rejected: the one space of reason codes of the address reader
 * ({@link AddressText#parse}), the range line reader ({@link RangeLine}) and the lookups of every
 * engine. Each reason has a name, written to rejects outputs, counters and summaries ({@code
 * not-ipv4}), and a negative code, {@code -1 - ordinal()}, that the readers return: the address
 * reader's codes are its constants ({@link AddressText#NOT_IPV4} is {@link #NOT_IPV4}{@code
 * .code()}), so that a code is named by looking it up, never by matching names.
 *
 * <p>The order is part of the codes: address reasons first (the address reader returns exactly
 * these), then the reasons of range lines and of lookup lines. New reasons go at the end.
 */
@Internal
public enum RejectReason {
  /** Not a dotted quad, nor any other form the context allows (e.g. {@code -}, {@code abc}). */
  NOT_IPV4("not-ipv4"),
  /** A dotted quad with an octet over 255. */
  OCTET_OUT_OF_RANGE("octet-out-of-range"),
  /** An octet with a leading zero, which readers disagree on (octal or decimal). */
  LEADING_ZERO("leading-zero"),
  /**
   * Text with a colon that is no IPv6 address ({@code [addr]:port} and {@code a.b.c.d:port} are
   * addresses where ports are allowed).
   */
  NOT_IPV6("not-ipv6"),
  /** An IPv6 address with a zone id ({@code fe80::1%eth0}): no index holds zones. */
  ZONE_ID("zone-id"),
  /** IPv6 text with more than one {@code ::}. */
  DOUBLE_COLON_TWICE("double-colon-twice"),
  /** An IPv6 group of more than 4 hex digits. */
  GROUP_TOO_LONG("group-too-long"),
  /** IPv6 text with too few or too many groups. */
  WRONG_GROUP_COUNT("wrong-group-count"),
  /** A dotted quad inside IPv6 text anywhere but in its last 32 bits ({@code 1.2.3.4::}). */
  IPV4_NOT_LAST("ipv4-not-last"),
  /** IPv6 text ending in an invalid dotted quad. */
  BAD_EMBEDDED_IPV4("bad-embedded-ipv4"),
  /** A decimal address of 2^128 or more. */
  NUMBER_OUT_OF_RANGE("number-out-of-range"),
  /** A CIDR prefix length that is not 0..32 (IPv4) or 0..128 (IPv6). */
  PREFIX_OUT_OF_RANGE("prefix-out-of-range"),
  /** A CIDR block whose address has bits set after the prefix. */
  HOST_BITS_SET("host-bits-set"),
  /** {@code [addr]} where brackets are not allowed (an IP list, a range file). */
  BRACKETS_NOT_ALLOWED("brackets-not-allowed"),
  /** {@code addr:port} where ports are not allowed (an IP list, a range file). */
  PORT_NOT_ALLOWED("port-not-allowed"),
  /**
   * {@code a.b.c.d:} or {@code [addr]:} followed by no port: nothing, not digits, more than 5
   * digits or over 65535 ({@code 1.2.3.4:99999}).
   */
  BAD_PORT("bad-port"),

  /** Range line: the first field is no address (nor CIDR block). */
  BAD_START("bad-start"),
  /** Range line: the second field is no address. */
  BAD_END("bad-end"),
  /** Range line: an address and no delimiter after it (a bare address is no range). */
  MISSING_END("missing-end"),
  /** Range line: the end is below the start. */
  END_BEFORE_START("end-before-start"),
  /** Range line: a CIDR prefix length out of range. */
  BAD_CIDR_PREFIX("bad-cidr-prefix"),
  /** Range line: a CIDR block whose address has bits set after the prefix. */
  CIDR_HOST_BITS_SET("cidr-host-bits-set"),
  /** Range line: one end IPv4, the other IPv6. */
  MIXED_FAMILIES("mixed-families"),

  /** Lookup line: empty or only white space. */
  BLANK_LINE("blank-line"),
  /** Lookup line, field mode: fewer fields than the IP field index needs. */
  MISSING_FIELD("missing-field"),
  /** Lookup line, field mode: the field is empty (nothing, white space, or {@code ""}). */
  EMPTY_FIELD("empty-field"),
  /** Lookup line, scan mode: no IPv4 or IPv6 address anywhere on the line. */
  NO_IP_FOUND("no-ip-found");

  private static final RejectReason[] VALUES = values();

  /**
   * The reasons a lookup line gets (field or scan mode, every engine), in the order summaries,
   * counters and reports list them: the line's own reasons, then the address reader's with the
   * {@link AddressText#LOOKUP} forms (which allow brackets and ports, and no numbers or blocks).
   */
  public static final List<RejectReason> LOOKUP =
      List.of(
          BLANK_LINE,
          MISSING_FIELD,
          NOT_IPV4,
          OCTET_OUT_OF_RANGE,
          LEADING_ZERO,
          NOT_IPV6,
          ZONE_ID,
          DOUBLE_COLON_TWICE,
          GROUP_TOO_LONG,
          WRONG_GROUP_COUNT,
          IPV4_NOT_LAST,
          BAD_EMBEDDED_IPV4,
          BAD_PORT,
          NO_IP_FOUND,
          EMPTY_FIELD);

  private final String label;

  RejectReason(String label) {
    this.label = label;
  }

  /** The name written to rejects outputs, counters and summaries, e.g. {@code not-ipv4}. */
  public String label() {
    return label;
  }

  /** The negative code the readers return for this reason: {@code -1 - ordinal()}. */
  public long code() {
    return -1L - ordinal();
  }

  /** Whether {@code code} is a reason's code. */
  public static boolean isCode(long code) {
    return code < 0 && code >= -VALUES.length;
  }

  /**
   * The reason of a negative result of {@link AddressText#parse} or of a lookup's locate.
   *
   * @throws IllegalArgumentException when {@code code} is no reason's code
   */
  public static RejectReason ofCode(long code) {
    if (!isCode(code)) {
      throw new IllegalArgumentException("not a reject code: " + code);
    }
    return VALUES[(int) (-1L - code)];
  }
}

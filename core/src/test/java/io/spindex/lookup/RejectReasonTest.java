/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.text.AddressText;
import io.spindex.text.RejectReason;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** One space of reason codes: the address reader's, the range reader's and the lookups'. */
class RejectReasonTest {
  /**
   * The reasons of a lookup line, as docs/BAD-INPUT.md lists them for ip-lookup: written out here,
   * not derived from the enum, so that a reason added to one and not the other fails.
   */
  private static final List<String> DOCUMENTED_LOOKUP =
      List.of(
          "blank-line",
          "missing-field",
          "not-ipv4",
          "octet-out-of-range",
          "leading-zero",
          "not-ipv6",
          "zone-id",
          "double-colon-twice",
          "group-too-long",
          "wrong-group-count",
          "ipv4-not-last",
          "bad-embedded-ipv4",
          "bad-port",
          "no-ip-found",
          "empty-field");

  @Test
  void namesAreDistinctAndCodesAreOrdinals() {
    Set<String> names = new HashSet<>();
    for (RejectReason r : RejectReason.values()) {
      assertTrue(names.add(r.label()), r.label());
      assertEquals(r, RejectReason.ofCode(r.code()));
      assertEquals(r.label(), AddressText.reason(r.code()));
    }
    assertEquals("not-an-address", AddressText.reason(-1L - RejectReason.values().length));
  }

  @Test
  void theLookupReasonsAreTheDocumentedOnes() {
    assertEquals(
        DOCUMENTED_LOOKUP,
        RejectReason.LOOKUP.stream().map(RejectReason::label).collect(Collectors.toList()));
  }

  /**
   * Whatever a lookup is given, its reason is one of {@link RejectReason#LOOKUP} (it was {@code
   * not-ipv6} for any code the lookups did not know, matched by name).
   */
  @Test
  void everyLookupRejectIsALookupReason() {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    String alphabet = "0123456789abcdef:.[]\"/% \t,x";
    IpLocator field = IpLocator.field((byte) ',', 1);
    IpLocator first = IpLocator.first();
    Set<RejectReason> seen = new HashSet<>();
    for (int i = 0; i < 200_000; i++) {
      StringBuilder sb = new StringBuilder("a,");
      if (rnd.nextInt(4) == 0) {
        // an address and a colon: a port, good or bad
        sb.append(rnd.nextBoolean() ? "10.0.0." + rnd.nextInt(300) : "[::" + rnd.nextInt(9) + "]");
        sb.append(':');
      }
      int n = rnd.nextInt(24);
      for (int k = 0; k < n; k++) {
        sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
      }
      byte[] b = sb.toString().getBytes(StandardCharsets.US_ASCII);
      for (IpLocator l : List.of(field, first)) {
        long a = l.locate(b, 0, b.length);
        if (a < 0) {
          RejectReason r = RejectReason.ofCode(a);
          assertTrue(RejectReason.LOOKUP.contains(r), r + " for '" + sb + "' (seed " + seed + ")");
          seen.add(r);
        }
      }
    }
    assertTrue(seen.contains(RejectReason.BAD_PORT), seen + " (seed " + seed + ")");
  }

  /** {@code 1.2.3.4:} and {@code 1.2.3.4:99999} are a bad port, not an IPv6 reason. */
  @Test
  void aQuadWithABadPortIsABadPort() {
    long[] out = new long[2];
    for (String s : List.of("1.2.3.4:", "1.2.3.4:99999", "1.2.3.4:1x", "[::1]:", "[::1]:65536")) {
      assertEquals(
          "bad-port", AddressText.reason(AddressText.parse(s, AddressText.LOOKUP, out)), s);
      assertEquals(
          "port-not-allowed", AddressText.reason(AddressText.parse(s, AddressText.PLAIN, out)), s);
    }
  }
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import java.util.Objects;

/**
 * What identifies the server's copy of the content: ETag, Last-Modified and length, each as the
 * server sent it (null when absent; length -1 when unknown). Two downloads may be stitched together
 * only when all three are equal. Immutable.
 */
final class Validator {
  final String etag;
  final String lastModified;
  final long length;

  Validator(String etag, String lastModified, long length) {
    this.etag = etag;
    this.lastModified = lastModified;
    this.length = length;
  }

  /** Whether {@code If-Range} may carry the ETag: only a strong one compares byte for byte. */
  boolean strongEtag() {
    return etag != null && !etag.startsWith("W/");
  }

  /** What differs from {@code earlier}, for a message, e.g. {@code ETag "a" -> "b"}. */
  String differenceFrom(Validator earlier) {
    StringBuilder sb = new StringBuilder();
    if (!Objects.equals(etag, earlier.etag)) {
      sb.append("ETag ").append(earlier.etag).append(" -> ").append(etag);
    }
    if (!Objects.equals(lastModified, earlier.lastModified)) {
      sb.append(sb.length() > 0 ? ", " : "")
          .append("Last-Modified ")
          .append(earlier.lastModified)
          .append(" -> ")
          .append(lastModified);
    }
    if (length != earlier.length) {
      sb.append(sb.length() > 0 ? ", " : "")
          .append("length ")
          .append(earlier.length)
          .append(" -> ")
          .append(length);
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Validator)) {
      return false;
    }
    Validator v = (Validator) o;
    return length == v.length
        && Objects.equals(etag, v.etag)
        && Objects.equals(lastModified, v.lastModified);
  }

  @Override
  public int hashCode() {
    return Objects.hash(etag, lastModified, length);
  }

  @Override
  public String toString() {
    return "ETag " + etag + ", Last-Modified " + lastModified + ", length " + length;
  }
}

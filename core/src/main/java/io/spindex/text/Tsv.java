/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A value written as one field of a line of text output ({@code spindex lookup}, {@code inspect}),
 * so that every record stays one line of tab-separated fields: a backslash, tab, LF and CR are
 * written {@code \\}, {@code \t}, {@code \n} and {@code \r}, and every other control character
 * U+0000..U+001F as {@code \}{@code u00XX}, as {@link Json#quote} writes them; the rest is left as
 * it is. The same escapes as PostgreSQL's text COPY format (and the reject record's first columns),
 * so {@code \N} alone stays the NULL answer. Stateless.
 */
@Internal
public final class Tsv {
  private Tsv() {}

  /**
   * {@code b} (UTF-8) escaped; {@code b} itself when it holds nothing to escape. UTF-8 never puts a
   * byte below 0x80 inside a multi-byte character, so the bytes are escaped as they are.
   */
  public static byte[] escape(byte[] b) {
    int i = 0;
    while (i < b.length && !special(b[i])) {
      i++;
    }
    if (i == b.length) {
      return b;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + 8);
    out.write(b, 0, i);
    for (; i < b.length; i++) {
      byte c = b[i];
      if (!special(c)) {
        out.write(c);
        continue;
      }
      String e = escaped((char) c);
      out.write(e.getBytes(StandardCharsets.US_ASCII), 0, e.length());
    }
    return out.toByteArray();
  }

  /** {@code s} escaped as {@link #escape(byte[])} escapes its UTF-8 bytes. */
  public static String escape(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80 && special((byte) c)) {
        if (sb == null) {
          sb = new StringBuilder(s.length() + 8).append(s, 0, i);
        }
        sb.append(escaped(c));
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? s : sb.toString();
  }

  private static boolean special(byte c) {
    return (c >= 0 && c < 0x20) || c == '\\';
  }

  private static String escaped(char c) {
    switch (c) {
      case '\\':
        return "\\\\";
      case '\t':
        return "\\t";
      case '\n':
        return "\\n";
      case '\r':
        return "\\r";
      default:
        return String.format(java.util.Locale.ROOT, "\\u%04x", (int) c);
    }
  }
}

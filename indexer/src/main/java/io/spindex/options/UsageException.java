/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.options;

/** Bad command line: the message is meant for the person who typed it. */
public class UsageException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}

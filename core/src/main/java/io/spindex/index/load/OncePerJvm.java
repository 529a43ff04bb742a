/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;

/**
 * A value computed once per key in this JVM, however many threads ask at once: the first caller
 * computes, the others wait for that result. A failure is not remembered: the next caller computes
 * again. What {@link IndexHolder} (load an index) and the jobs' staging (copy an index to local
 * disk) are built on. Thread-safe.
 *
 * @param <K> key; equal keys share one value
 * @param <V> value
 */
@Internal
public final class OncePerJvm<K, V> {
  /** Computes a value; may fail with an {@link IOException}. */
  public interface Computation<V> {
    V compute() throws IOException;
  }

  /** A value and whether this call computed it. */
  public static final class Result<V> {
    private final V value;
    private final boolean computedByThisCall;

    Result(V value, boolean computedByThisCall) {
      this.value = value;
      this.computedByThisCall = computedByThisCall;
    }

    public V value() {
      return value;
    }

    /** True for exactly one call per key and value: report one-off statistics only then. */
    public boolean computedByThisCall() {
      return computedByThisCall;
    }
  }

  private final ConcurrentMap<K, CompletableFuture<V>> values = new ConcurrentHashMap<>();

  /**
   * The value for {@code key}, computed by {@code computation} if no caller has yet.
   *
   * @throws IOException what the computation threw (wrapped with {@code what} for the callers that
   *     waited for it)
   */
  public Result<V> get(K key, String what, Computation<V> computation) throws IOException {
    CompletableFuture<V> mine = new CompletableFuture<>();
    CompletableFuture<V> existing = values.putIfAbsent(key, mine);
    if (existing == null) {
      try {
        V v = computation.compute();
        mine.complete(v);
        return new Result<>(v, true);
      } catch (IOException | RuntimeException | Error e) {
        values.remove(key, mine);
        mine.completeExceptionally(e);
        throw e;
      }
    }
    try {
      return new Result<>(existing.get(), false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for " + what, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw new IOException(what + " failed: " + cause.getMessage(), cause);
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new UncheckedIOException(new IOException(what + " failed", cause));
    }
  }

  /** Forgets the value of {@code key}: the next caller computes it again. */
  public void forget(K key) {
    values.remove(key);
  }

  /** Forgets every value. */
  public void clear() {
    values.clear();
  }

  /** How many values are held. */
  public int size() {
    return values.size();
  }
}

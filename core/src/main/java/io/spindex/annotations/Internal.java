/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class or member that is public only so that Spindex's own modules (the command line, the
 * Spark and MapReduce jobs, the benchmarks) can use it across packages. It is not API: it may
 * change or disappear in any release. The API is {@link io.spindex.Spindex} and the read-only types
 * it returns ({@code io.spindex.index}: {@code SpindexIndex}, {@code IpSet}, {@code IpRanges},
 * {@code ProductIndex}, {@code IndexHeader}, {@code IndexKind}, {@code CorruptIndexException})
 * without their members marked with this annotation; in the job jars, their entry points and the
 * Spark SQL functions. Each jar's {@code PublicApiTest} holds its public classes not marked with
 * this annotation to the jar's list.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface Internal {}

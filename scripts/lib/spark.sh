#!/usr/bin/env bash
# Sourced by the Spark scripts (submit, local-cluster, demo, it-spark-dist, it-yarn): where the job
# jar, a Spark launcher and the Java 17 flags come from. Expects $root (the repository) to be set
# and scripts/lib/java17.sh to be sourced first.

# The flags Spark's own launcher adds on Java 17 (org.apache.spark.launcher.JavaModuleOptions).
spark_java17_flags=(
  -XX:+IgnoreUnrecognizedVMOptions
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/sun.nio.cs=ALL-UNNAMED
  --add-opens=java.base/sun.security.action=ALL-UNNAMED
  --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
  --add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  -Djdk.reflect.useDirectMethodHandle=false
)
export spark_java17_flags

# Prints the shaded job jar, building it (and the Spark classpath file beside it) when missing.
spark_job_jar() {
  local jars
  if [[ -n "${SPINDEX_SPARK_JAR:-}" ]]; then
    printf '%s\n' "$SPINDEX_SPARK_JAR"
    return 0
  fi
  shopt -s nullglob
  jars=("$root"/jobs/spark/target/spindex-spark-*-job.jar)
  if (( ${#jars[@]} == 0 )) || [[ ! -f "$root/jobs/spark/target/spark-classpath.txt" ]]; then
    echo "building the Spark job jar (first run)..." >&2
    (cd "$root" && ./mvnw -B -q -pl jobs/spark -am package -DskipTests -Dspotless.check.skip=true) >&2
    jars=("$root"/jobs/spark/target/spindex-spark-*-job.jar)
  fi
  shopt -u nullglob
  printf '%s\n' "${jars[0]}"
}

# Prints the directory of a Spark distribution ($SPARK_HOME, or the one spark-submit on PATH
# belongs to), or nothing.
spark_home() {
  local submit
  if [[ -n "${SPARK_HOME:-}" && -x "$SPARK_HOME/bin/spark-submit" ]]; then
    printf '%s\n' "$SPARK_HOME"
  elif submit="$(command -v spark-submit)"; then
    (cd "$(dirname "$(readlink -f "$submit")")/.." && pwd)
  fi
}

# Prints the Maven-resolved Spark classpath (Spark 3.5.9 and its dependencies, as `provided` in
# jobs/spark/pom.xml), written next to the job jar when it is built.
spark_maven_classpath() {
  spark_job_jar >/dev/null
  cat "$root/jobs/spark/target/spark-classpath.txt"
}

# A real Spark 3.5.9 distribution (spark-submit, spark-sql, spark-class, PySpark): pyspark==3.5.9
# from PyPI, installed once into the venv $1; exports SPARK_HOME as that distribution.
spark_distribution() {
  local venv="$1"
  if ! "$venv/bin/python" -c 'import pyspark, sys; sys.exit(pyspark.__version__ != "3.5.9")' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --no-cache-dir pyspark==3.5.9
  fi
  SPARK_HOME="$("$venv/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
  export SPARK_HOME
}

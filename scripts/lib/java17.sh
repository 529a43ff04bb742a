#!/usr/bin/env bash
# Sourced by the scripts: points JAVA_HOME at a JDK 17 (Spindex is built and tested on 17;
# Hadoop does not run on newer JDKs). Installs one from Debian's packages when none is found
# and the script runs as root.
java17_home() {
  local candidate
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/java-17-openjdk-arm64 /usr/lib/jvm/temurin-17-jdk-amd64; do
    if [[ -n "$candidate" && -x "$candidate/bin/javac" ]] \
      && "$candidate/bin/java" -version 2>&1 | grep -q 'version "17\.'; then
      printf '%s\n' "$candidate"
      return 0
    fi
  done
  return 1
}

if ! JAVA_HOME="$(java17_home)"; then
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    echo "installing openjdk-17-jdk-headless" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless >/dev/null
    JAVA_HOME="$(java17_home)"
  else
    echo "a JDK 17 is needed: set JAVA_HOME" >&2
    exit 1
  fi
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"

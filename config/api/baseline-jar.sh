#!/usr/bin/env bash
# Builds the API baseline that japicmp compares transport-core's public API with: transport-core's sources at the
# baseline commit (api.baseline.commit in the root pom), taken from this repository's own history with git archive
# and compiled with javac against the module's current dependencies. Nothing is downloaded; the result is cached in
# the build folder per commit. See docs/api-compatibility.md.
#
# usage: baseline-jar.sh COMMIT OUTPUT_JAR CLASSPATH
set -euo pipefail
commit="$1"
output="$2"
classpath="$3"
work="$(dirname "$output")/api-baseline"
root="$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || true)"

if [[ -f "$output" && "$(cat "$work/commit" 2>/dev/null)" == "$commit" ]]; then
    exit 0
fi
if [[ -z "$root" ]] || ! git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "api baseline: commit $commit is not in this repository (a source archive or a shallow clone?)." >&2
    echo "api baseline: build in a full clone, or skip the API check with -Djapicmp.skip." >&2
    exit 1
fi
rm -rf "$work"
mkdir -p "$work/src" "$work/classes"
git -C "$root" archive "$commit" transport-core/src/main/java | tar -x -C "$work/src"
find "$work/src" -name '*.java' > "$work/sources.txt"
javac --release 17 -nowarn -proc:none -encoding UTF-8 -d "$work/classes" -cp "$classpath" @"$work/sources.txt" \
    2> "$work/javac.log" || { cat "$work/javac.log" >&2; exit 1; }
jar cf "$output" -C "$work/classes" .
echo "$commit" > "$work/commit"
echo "api baseline: transport-core at $commit -> $output"

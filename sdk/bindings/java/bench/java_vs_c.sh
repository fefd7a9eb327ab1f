#!/usr/bin/env bash
# The Java library's overhead against the C ABI it wraps, in one run: the
# same DPRR report (n users, one user of degree d, the OS CSPRNG) built
# REPORTS times from C and from Java, alternating twice; then the leak check
# (LEAK_REPORTS reports, each from a RandomSource built and closed).
#   sdk/bindings/java/bench/java_vs_c.sh BUILD_DIR [N] [DEGREE] [REPORTS] [LEAK_REPORTS]
# BUILD_DIR: a build with -DLDPGRAPH_BUILD_JAVA=ON.
set -euo pipefail
build=${1:?usage: java_vs_c.sh BUILD_DIR [N] [DEGREE] [REPORTS] [LEAK_REPORTS]}
n=${2:-1000000}; degree=${3:-100}; reports=${4:-20000}; leak=${5:-100000}
dir=$build/sdk/bindings/java
for round in 1 2; do
  c=$("$dir/java_report_bench" "$n" "$degree" "$reports" | sed -n 's/^c_us_per_report=//p')
  j=$(java -Djava.library.path="$dir" -cp "$dir/ldpgraph.jar:$dir/java_report_bench.jar" ReportBench \
        "$n" "$degree" "$reports" 0 | sed -n 's/^java_us_per_report=//p')
  echo "round=$round c_us_per_report=$c java_us_per_report=$j java_over_c=$(awk "BEGIN{printf \"%.3f\", $j/$c}")"
done
# A fixed heap, touched up front: the resident size then moves only with native memory.
java -Xms64m -Xmx64m -XX:+AlwaysPreTouch -Djava.library.path="$dir" -cp "$dir/ldpgraph.jar:$dir/java_report_bench.jar" \
  ReportBench "$n" "$degree" 1 "$leak" |
  grep -E '^(leak_reports|rss_after_warmup_kb|rss_end_kb|rss_growth)='

#!/usr/bin/env bash
# The unit tier under valgrind's memcheck, on a portable build (the x86-64
# baseline with kernels picked at run time: valgrind emulates up to AVX2, so
# it runs the same AVX2 kernels the machine would). Complements the ASan +
# UBSan build: memcheck sees uninitialised reads, which ASan does not, and
# runs the optimised code as shipped. Two tests at a time.
#   tests/valgrind_unit_tier.sh BUILD_DIR [ctest -E regex of tests to leave out]
set -euo pipefail
build=$(cd "${1:?build dir}" && pwd)
exclude=${2:-^$}
log_dir=$(mktemp -d)
# "Test command: <program> <args>" of every unit test, as ctest would run it.
(cd "$build" && ctest -L unit -E "$exclude" -N -V) | sed -n 's/^[0-9]*: Test command: //p' |
  grep -v '^/usr/bin/bash\|^/bin/bash' >"$log_dir/all"
# The longest under memcheck start first, longest of all first, so that the
# other worker runs the rest beside them instead of one test ending the tier
# alone (CI, 2 cores, on 2026-11-26: gw_embeddings_test 173 s and
# federated_embeddings_test 192 s when they ran here, training_test 85 s,
# gradient_check_test 40 s, sparse_matrix_test 20 s).
slow=(gw_embeddings_test federated_embeddings_test training_test gradient_check_test sparse_matrix_test)
{
  for t in "${slow[@]}"; do grep -E "/$t(\"| |\$)" "$log_dir/all" || true; done
  grep -vE "/($(IFS='|'; echo "${slow[*]}"))(\"| |\$)" "$log_dir/all"
} >"$log_dir/commands"
echo "valgrind_unit_tests=$(wc -l <"$log_dir/commands")"
start=$(date +%s)
status=0
# Each line: a quoted program and its quoted arguments; run from the test's build dir.
xargs -P 2 -L 1 -a "$log_dir/commands" bash -c '
  name=$(basename "$0")
  t0=$(date +%s)
  if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$0" "$@" >"'"$log_dir"'/$name.log" 2>&1; then
    echo "valgrind_ok=$name seconds=$(($(date +%s) - t0))"
  else
    echo "valgrind_failed=$name"; tail -40 "'"$log_dir"'/$name.log"; exit 255
  fi' || status=1
echo "valgrind_seconds=$(($(date +%s) - start))"
rm -rf "$log_dir"
exit $status

#!/usr/bin/env bash
# On the GPU machine: greedy generation of the Llama module that
# prepare.sh compiled, against transformers' tokens (export.py), on cpu and
# cuda (graph and stream command buffers); the prompt's logits on cuda; and
# 200 tokens on cuda and on cpu, which must agree (a long run: no resource
# grows from call to call). A table last; exit 1 on a failure.
#
#   bash DIR/check.sh DIR
set -uo pipefail
dir=${1:-$(dirname "$0")}
cd "$dir"
run=./tessel-run
rows=() fail=0
check() { # name, command...
  local name=$1
  shift
  if out=$("$@" 2>&1); then rows+=("| $name | PASS | $(echo "$out" | grep -E 'time to first|PASS' | tail -1 | cut -c1-110) |")
  else rows+=("| $name | FAIL | $(echo "$out" | tail -1 | cut -c1-160) |"); fail=1; fi
}
check "cpu: 32 greedy tokens = transformers" $run llama_all.tmod --device=cpu --input=@prompt.npy --generate=32 --expected_output=@greedy.npy
for mode in graph stream; do
  check "cuda $mode: 32 greedy tokens = transformers" $run llama_all.tmod --device=cuda --cuda-command-buffer=$mode --input=@prompt.npy --generate=32 --expected_output=@greedy.npy
done
check "cuda: prompt logits vs transformers (1e-4)" $run llama_all.tmod --device=cuda --input=@prompt.npy --expected_output=@prompt_logits.npy --tolerance=1e-4
check "cpu: 200 tokens" $run llama_all.tmod --device=cpu --input=@prompt.npy --generate=200 --output=@/tmp/cpu200.npy
check "cuda: 200 tokens = cpu's" $run llama_all.tmod --device=cuda --input=@prompt.npy --generate=200 --expected_output=@/tmp/cpu200.npy
echo "| check | result | detail |"
echo "| --- | --- | --- |"
printf '%s\n' "${rows[@]}"
exit $fail

#!/usr/bin/env bash
# Rodinia benchmark, the prepare half (here, the build machine; see README.md).
#
#   bench/rodinia/prepare.sh [DIR]        (default DIR: .carry/rodinia, git-ignored)
#
# Builds every Rodinia program of test/rodinia with tessel-cc
# (--target=cpu,cuda --cpu=x86-64-v4,x86-64-v3 --cuda-arch=sm_90; the
# binaries take their sizes at run time, so one build each serves every size)
# and copies what the GPU machine needs into DIR: the binaries (debug info
# stripped), the Rodinia sources (OpenMP and nvcc builds happen there), the
# harness (run_reference.py: inputs, checks), the shims, the bandwidth
# probe and run.py. Then
#   python3 DIR/run.py --dir=DIR          (there; or bench/rodinia/run.py)
#
# Environment:
#   TESSEL_CC   tessel-cc to use (default: build/compiler/tools/tessel-cc of
#               this checkout, else of /work/main)
#   CUDART      libtessel_cudart.a to link (tessel-cc --cudart); it must know
#               TESSEL_CUDART_TIMING (runtime/cudart), or the Tessel runs
#               have no region time
#   VARIANTS    ablation builds, "name=extra tessel-cc flags;name2=flags":
#               each program is built again per variant, as
#               tessel_<test>.<name> (run.py shows a column per variant)
#   XZ=1        also pack DIR into DIR.tar.xz (run.py --dir accepts either)
#   JOBS        parallel tessel-cc commands (default: number of CPUs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${1:-$repo/.carry/rodinia}
mkdir -p "$(dirname "$dir")"
dir=$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir")

if [ -n "${TESSEL_CC:-}" ]; then
  tessel_cc=$TESSEL_CC
elif [ -x "$repo/build/compiler/tools/tessel-cc" ]; then
  tessel_cc=$repo/build/compiler/tools/tessel-cc
else
  tessel_cc=/work/main/build/compiler/tools/tessel-cc
fi
[ -x "$tessel_cc" ] || { echo "tessel-cc not found: $tessel_cc (set TESSEL_CC)" >&2; exit 1; }
tessel_cc=$(cd "$(dirname "$tessel_cc")" && pwd)/$(basename "$tessel_cc")
jobs=${JOBS:-$(nproc)}
py=python3
# run_reference.py needs numpy for the larger sizes only (not for building)
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

common_flags="--cpu=x86-64-v4,x86-64-v3 --cuda-arch=sm_90"
if [ -n "${CUDART:-}" ]; then
  [ -f "$CUDART" ] || { echo "CUDART=$CUDART: no such file" >&2; exit 1; }
  CUDART=$(cd "$(dirname "$CUDART")" && pwd)/$(basename "$CUDART")
  common_flags="$common_flags --cudart=$CUDART"
  cudart_desc=$CUDART
else
  cudart_desc="tessel-cc's default"
fi

echo "tessel-cc: $tessel_cc"
echo "cudart:    $cudart_desc"
echo "into:      $dir"
rm -rf "$dir" "$dir.tar.xz"
mkdir -p "$dir/bin" "$dir/rodinia" "$dir/shims" "$dir/bandwidth"

# Variants: "" (everything on) plus VARIANTS.
names=("")
flags=("")
if [ -n "${VARIANTS:-}" ]; then
  IFS=';' read -r -a specs <<<"$VARIANTS"
  for spec in "${specs[@]}"; do
    [ -n "$spec" ] || continue
    name=${spec%%=*}
    [ "$name" != "$spec" ] || { echo "VARIANTS: '$spec' is not name=flags" >&2; exit 1; }
    [[ "$name" =~ ^[A-Za-z0-9_-]+$ ]] || { echo "VARIANTS: bad name '$name'" >&2; exit 1; }
    names+=("$name")
    flags+=("${spec#*=}")
  done
fi

tests=$("$py" "$repo/test/rodinia/run_reference.py" --list | awk '{print $1}')
status=0
build_one() { # variant-index test
  local i=$1 t=$2 name=${names[$1]} out
  out=$(mktemp -d)
  if TESSEL_CC_FLAGS="$common_flags ${flags[$i]}" RODINIA_WORK="$out/work" \
    nice -n 10 "$py" "$repo/test/rodinia/run_reference.py" --build-tessel "$t" \
    --tessel-cc "$tessel_cc" --target=cpu,cuda --out "$out" >"$out/log" 2>&1 &&
    [ -x "$out/$t/tessel_$t" ]; then
    mkdir -p "$dir/bin/$t"
    strip --strip-debug -o "$dir/bin/$t/tessel_$t${name:+.$name}" "$out/$t/tessel_$t"
    echo "built $t${name:+ ($name)}"
  else
    echo "FAIL $t${name:+ ($name)}: $(grep -m3 -E 'error|FAIL' "$out/log" | head -3)"
    rm -rf "$out"
    return 1
  fi
  rm -rf "$out"
}
for i in "${!names[@]}"; do
  for t in $tests; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || status=1; done
    build_one "$i" "$t" &
  done
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || status=1; done

# The launch-cost probe (run.py prints its table): the runtime's cost of
# one nearly empty launch, the bound on what merging launches could save.
mkdir -p "$dir/bin"
if ! "$tessel_cc" --target=cpu,cuda $common_flags -O2 "$here/launch/launch_overhead.cu" -o "$dir/bin/launch_overhead" \
    >"$dir/bin/launch_overhead.log" 2>&1; then
  echo "launch_overhead: build failed ($dir/bin/launch_overhead.log)" >&2
  status=1
fi

# What the other machine needs besides the binaries.
cp "$here/run.py" "$here/README.md" "$dir/"
cp "$here"/shims/*.c "$dir/shims/"
cp "$here"/bandwidth/triad.c "$dir/bandwidth/"
(cd "$repo/test/rodinia" && cp -r run_reference.py LICENSE SOURCE.md CENSUS.md common cuda openmp \
  harness golden "$dir/rodinia/")
find "$dir/rodinia" -name '__pycache__' -prune -exec rm -rf {} +

if grep -qa TESSEL_CUDART_TIMING \
  "${CUDART:-$(dirname "$tessel_cc")/../../runtime/cudart/libtessel_cudart.a}" 2>/dev/null; then
  timing=yes
else
  timing=no
  echo "WARNING: the cudart linked does not know TESSEL_CUDART_TIMING: the Tessel runs will" \
    "have no region time (build runtime/cudart of this branch and pass CUDART=)" >&2
fi

commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$repo" status --porcelain -uno 2>/dev/null)" ] || commit="$commit (dirty)"
"$py" - "$dir" "$tessel_cc" "$cudart_desc" "$common_flags" "$timing" "$commit" "${#names[@]}" \
  "${names[@]}" "${flags[@]}" <<'EOF'
import json, os, sys, time
d, cc, cudart, common, timing, commit, n = sys.argv[1:8]
n = int(n)
names, flags = sys.argv[8:8 + n], sys.argv[8 + n:8 + 2 * n]
bins = sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(os.path.join(d, "bin"))
              for f in fs)
m = {"tessel_cc": cc, "commit": commit, "cudart": cudart, "cudart_timing": timing == "yes",
     "flags": "--target=cpu,cuda " + common, "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
     "variants": [{"name": a, "flags": b} for a, b in zip(names, flags) if a],
     "binaries": bins}
with open(os.path.join(d, "manifest.json"), "w") as f:
    json.dump(m, f, indent=1)
EOF

if [ "${XZ:-0}" = 1 ]; then
  tar -C "$(dirname "$dir")" -cf - "$(basename "$dir")" | xz -T"$jobs" -6 >"$dir.tar.xz"
  echo "packed: $dir.tar.xz ($(du -h "$dir.tar.xz" | cut -f1))"
fi
echo "carry: $dir ($(du -sh "$dir" | cut -f1))"
if [ "$(du -sm "$dir" | cut -f1)" -gt 60 ] && [ "${XZ:-0}" != 1 ]; then
  echo "WARNING: over 60 MiB (the carry limit is 64 MiB): run with XZ=1 and carry $dir.tar.xz" >&2
fi
[ $status -eq 0 ] || echo "some builds failed (above); run.py shows them as 'no build'" >&2
exit $status

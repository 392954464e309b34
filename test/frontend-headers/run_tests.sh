#!/bin/bash
# Tests of Tessel's CUDA headers (compiler/lib/Frontend/CUDA/headers):
#  1. every cases/*.cu parses device side (-fsyntax-only) and compiles host
#     side (-c) and device side to LLVM IR with the headers alone;
#  2. with a CUDA toolkit on the machine: the host objects reference and
#     define exactly the symbols of the same compilation with the toolkit
#     (headers in strict CUDA 13 mode, -DTESSEL_CUDA_NO_LEGACY_API), the
#     device IR declares the same external functions and intrinsics, every
#     libcudart symbol referenced exists in libcudart.so, and the ABI
#     (check_abi.py) and macros (check_macros.py) of the headers match.
set -u
source "$(dirname "$0")/common.sh"
fail=0
pass() { echo "PASS $*"; }
bad() { echo "FAIL $*"; fail=1; }

cd "$HERE/cases"
for f in *.cu; do
  n=${f%.cu}
  $CLANGXX "${TESSEL_FLAGS[@]}" "${DEVICE_FLAGS[@]}" -fsyntax-only "$f" >"$OUT/$n.dev.log" 2>&1 &&
    pass "$n: device parse" || { bad "$n: device parse"; cat "$OUT/$n.dev.log"; }
  $CLANGXX "${TESSEL_FLAGS[@]}" "${DEVICE_FLAGS[@]}" -O2 -S -emit-llvm "$f" -o "$OUT/$n.dev.ll" >"$OUT/$n.ir.log" 2>&1 &&
    pass "$n: device IR" || { bad "$n: device IR"; cat "$OUT/$n.ir.log"; }
  # A device function that the headers declare but never define shows up as
  # an internal-linkage declaration (the toolkit leaves only nan/nanf(const
  # char *) undefined).
  $CLANGXX "${TESSEL_FLAGS[@]}" "${DEVICE_FLAGS[@]}" -O0 -S -emit-llvm "$f" -o "$OUT/$n.dev0.ll" >/dev/null 2>&1
  undef=$(grep '^declare' "$OUT/$n.dev0.ll" | grep -oE '@_ZL[A-Za-z0-9_]+' | grep -vE '^@_ZL(3nan|4nanf)PKc$')
  [ -z "$undef" ] && pass "$n: no undefined internal device functions" ||
    bad "$n: undefined internal device functions: $undef"
  $CLANGXX "${TESSEL_FLAGS[@]}" "${HOST_FLAGS[@]}" "$f" -o "$OUT/$n.o" >"$OUT/$n.host.log" 2>&1 &&
    pass "$n: host compile" || { bad "$n: host compile"; cat "$OUT/$n.host.log"; }
done

# The runtime/driver API headers in plain C and C++ (host-only files).
cd "$HERE"
for lang in c c++; do
  cc=$CLANGXX; [ $lang = c ] && cc=${CLANGXX/clang++/clang}
  $cc -x $lang -isystem "$HEADERS" -Wall -Werror -c host_only.c -o "$OUT/host_only.$lang.o" >"$OUT/host_only.$lang.log" 2>&1 &&
    pass "host_only.c as $lang" || { bad "host_only.c as $lang"; cat "$OUT/host_only.$lang.log"; }
done
cd "$HERE/cases"

if ! have_sdk; then
  echo "no CUDA toolkit at $CUDA_HOME: skipping the comparisons"
  exit $fail
fi

for f in *.cu; do
  n=${f%.cu}
  [ "$n" = legacy_api ] && continue # uses APIs CUDA 13 removed
  # TOOLKIT_REFERENCE: a case leaves out what clang + toolkit cannot compile.
  $CLANGXX "${TESSEL_FLAGS[@]}" -DTESSEL_CUDA_NO_LEGACY_API -DTOOLKIT_REFERENCE "${HOST_FLAGS[@]}" "$f" -o "$OUT/$n.strict.o" 2>/dev/null
  $CLANGXX "${SDK_FLAGS[@]}" -DTOOLKIT_REFERENCE "${HOST_FLAGS[@]}" "$f" -o "$OUT/$n.sdk.o" 2>/dev/null
  if diff <(symbols "$OUT/$n.strict.o") <(symbols "$OUT/$n.sdk.o") >"$OUT/$n.nm.diff"; then
    pass "$n: host symbols = toolkit's ($(symbols "$OUT/$n.o" | grep -c '^U ') undefined)"
  else
    bad "$n: host symbols differ from the toolkit's"; cat "$OUT/$n.nm.diff"
  fi
  $CLANGXX "${TESSEL_FLAGS[@]}" -DTOOLKIT_REFERENCE "${DEVICE_FLAGS[@]}" -O2 -S -emit-llvm "$f" -o "$OUT/$n.ref.ll" 2>/dev/null
  # -nocudalib (no libdevice linked in) also drops the SDK version: restore it.
  $CLANGXX "${SDK_FLAGS[@]}" -nocudalib -Xclang -target-sdk-version=12.9 -DTOOLKIT_REFERENCE --cuda-device-only -O2 -S -emit-llvm "$f" -o "$OUT/$n.sdk.ll" 2>/dev/null
  # Allowed: __nanosleep is the __nvvm_nanosleep builtin here, inline asm in
  # the toolkit.
  decls() { grep -oE '^declare [^@]*@[A-Za-z0-9_.]+' "$1" | sed 's/.*@//' | grep -vx 'llvm.nvvm.nanosleep' | sort -u; }
  if diff <(decls "$OUT/$n.ref.ll") <(decls "$OUT/$n.sdk.ll") >"$OUT/$n.decl.diff"; then
    pass "$n: device IR declarations = toolkit's ($(decls "$OUT/$n.ref.ll" | wc -l))"
  else
    bad "$n: device IR declarations differ from the toolkit's"; cat "$OUT/$n.decl.diff"
  fi
done

# Every runtime/driver symbol our host objects need exists in the CUDA 13
# libraries (this includes the legacy forwarders' targets).
exports=$(nm -D --defined-only "$CUDA_HOME"/lib64/libcudart.so "$CUDA_HOME"/lib64/stubs/libcuda.so 2>/dev/null | awk '{print $3}' | sed 's/@.*//' | sort -u)
missing=$(cat "$OUT"/*.o 2>/dev/null >/dev/null; for o in "$OUT"/*.o; do nm "$o" | awk '$1=="U"{print $2}'; done | grep -E '^(cuda|cu[A-Z]|__cuda)' | sort -u | comm -23 - <(echo "$exports"))
[ -z "$missing" ] && pass "all referenced cuda*/cu*/__cuda* symbols are exported by libcudart.so / libcuda.so" ||
  { bad "symbols missing from the CUDA 13 libraries:"; echo "$missing"; }

# ABI and macros of the headers against the toolkit's.
cd "$HERE"
if build_probe; then
  for side in host device; do
    "$PROBE" abi "$HEADERS" -- "${TESSEL_FLAGS[@]}" -resource-dir "$RESOURCE_DIR" -DTESSEL_CUDA_NO_LEGACY_API --cuda-$side-only abi_all.cu >"$OUT/ours.$side.abi" 2>"$OUT/abi.log"
    "$PROBE" abi "$CUDA_HOME:$RESOURCE_DIR/include/__clang_cuda_runtime_wrapper.h" -- "${SDK_FLAGS[@]}" -resource-dir "$RESOURCE_DIR" --cuda-$side-only abi_all.cu >"$OUT/sdk.$side.abi" 2>>"$OUT/abi.log"
    python3 check_abi.py "$OUT/ours.$side.abi" "$OUT/sdk.$side.abi" >"$OUT/abi.$side.txt" &&
      pass "ABI ($side side): $(head -1 "$OUT/abi.$side.txt")" || { bad "ABI ($side side)"; cat "$OUT/abi.$side.txt"; }
  done
  "$PROBE" abi "$HEADERS" -- "${TESSEL_FLAGS[@]}" -resource-dir "$RESOURCE_DIR" --cuda-host-only abi_all.cu >"$OUT/ours.legacy.abi" 2>>"$OUT/abi.log"
  python3 check_abi.py "$OUT/ours.legacy.abi" "$OUT/sdk.host.abi" >"$OUT/abi.legacy.txt" &&
    pass "ABI (legacy mode): $(head -1 "$OUT/abi.legacy.txt")" || { bad "ABI (legacy mode)"; cat "$OUT/abi.legacy.txt"; }
else
  echo "SKIP ABI check: cannot build tools/cuda_header_probe.cpp (needs clang headers and libclang-cpp)"
fi
STD=(-include assert.h -include limits.h -include stddef.h -include stdint.h -include stdio.h -include stdlib.h -include string.h -include time.h -include climits -include cmath -include cstdlib -include new)
for side in host device; do
  $CLANGXX -x cuda -nocudainc -nocudalib --cuda-path=/nonexistent --cuda-gpu-arch=$ARCH --cuda-$side-only -E -dM "${STD[@]}" abi_all.cu >"$OUT/base.$side.macros" 2>/dev/null
  $CLANGXX "${TESSEL_FLAGS[@]}" --cuda-$side-only -E -dM abi_all.cu >"$OUT/ours.$side.macros"
  $CLANGXX "${SDK_FLAGS[@]}" --cuda-$side-only -E -dM abi_all.cu >"$OUT/sdk.$side.macros" 2>/dev/null
  python3 check_macros.py "$OUT/base.$side.macros" "$OUT/ours.$side.macros" "$OUT/sdk.$side.macros" >"$OUT/macros.$side.txt" &&
    pass "macros ($side side): $(head -1 "$OUT/macros.$side.txt")" || { bad "macros ($side side)"; cat "$OUT/macros.$side.txt"; }
done
exit $fail

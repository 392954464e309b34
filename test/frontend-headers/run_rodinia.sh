#!/bin/bash
# Parses (device side) and compiles (host side) the CUDA programs of Rodinia
# with Tessel's CUDA headers, unchanged; with a CUDA toolkit on the machine,
# compares the host objects' symbols with the same compilation against the
# toolkit; with cuda_header_probe, lists what each program's device code calls
# once the headers' inline wrappers are looked through.
#
#   run_rodinia.sh <rodinia checkout>   (the directory that holds cuda/)
#
# Get the sources e.g. with: git clone https://github.com/yuhc/gpu-rodinia
set -u
source "$(dirname "$0")/common.sh"
ROD=${1:?usage: run_rodinia.sh <rodinia checkout>}
ROD=$(cd "$ROD" && pwd)
O=$OUT/rodinia; mkdir -p "$O"
# How clang + toolkit gets past what CUDA 13 removed (only for the reference
# build): cudaThreadSynchronize, cudaDeviceProp::clockRate/deviceOverlap, and
# nvcc's implicit <time.h>.
SDK_COMPAT=(-DcudaThreadSynchronize=cudaDeviceSynchronize -include time.h
  -DclockRate=multiProcessorCount -DdeviceOverlap=asyncEngineCount)
fail=0
build_probe >/dev/null 2>&1 && probe=1 || probe=0

while read -r name dir file flags; do
  case "$name" in "#"*|"") continue;; esac
  src="$ROD/cuda/$dir"
  ( cd "$src" && $CLANGXX "${TESSEL_FLAGS[@]}" "${DEVICE_FLAGS[@]}" -fsyntax-only $flags "$file" ) >"$O/$name.dev.log" 2>&1; d=$?
  ( cd "$src" && $CLANGXX "${TESSEL_FLAGS[@]}" "${HOST_FLAGS[@]}" $flags "$file" -o "$O/$name.o" ) >"$O/$name.host.log" 2>&1; h=$?
  if [ $d = 0 ] && [ $h = 0 ]; then
    line="PASS $name: device parse, host compile"
  else
    line="FAIL $name: device $([ $d = 0 ] && echo ok || echo FAILED), host $([ $h = 0 ] && echo ok || echo FAILED): $(grep -h -m1 'error:' "$O/$name.dev.log" "$O/$name.host.log" | head -1)"
    fail=1
  fi
  if [ $h = 0 ] && have_sdk; then
    ( cd "$src" && $CLANGXX "${SDK_FLAGS[@]}" "${SDK_COMPAT[@]}" "${HOST_FLAGS[@]}" $flags "$file" -o "$O/$name.sdk.o" ) >/dev/null 2>&1
    if [ -f "$O/$name.sdk.o" ]; then
      if diff <(symbols "$O/$name.o") <(symbols "$O/$name.sdk.o") >"$O/$name.nm.diff"; then
        line="$line; host symbols = toolkit's"
      else
        line="$line; host symbols vs toolkit's: $(grep '^[<>]' "$O/$name.nm.diff" | tr '\n' ' ')"
      fi
    fi
  fi
  echo "$line"
  if [ $d != 0 ] && grep -qE '<<[[:space:]]+<' "$src/$file"; then
    # nvcc accepts `<< <`...`>> >`; clang cannot (see respace_launches.py).
    # Show that this is the only problem: retry on a respaced copy.
    rs="$O/respaced/$dir"; mkdir -p "$rs"; cp -r "$src/." "$rs/"
    python3 "$HERE/respace_launches.py" "$src/$file" "$rs/$file" 2>/dev/null
    ( cd "$rs" && $CLANGXX "${TESSEL_FLAGS[@]}" "${DEVICE_FLAGS[@]}" -fsyntax-only $flags "$file" ) >"$O/$name.rs.dev.log" 2>&1 &&
    ( cd "$rs" && $CLANGXX "${TESSEL_FLAGS[@]}" "${HOST_FLAGS[@]}" $flags "$file" -o "$O/$name.rs.o" ) >"$O/$name.rs.host.log" 2>&1 &&
      echo "     $name with its launches respaced (<< < -> <<<): device parse, host compile pass" &&
      [ $probe = 1 ] && ( cd "$rs" && "$PROBE" callees -- "${TESSEL_FLAGS[@]}" "${DEVICE_FLAGS[@]}" -resource-dir "$RESOURCE_DIR" $flags "$file" ) 2>/dev/null >"$O/$name.callees"
  fi
  if [ $d = 0 ] && [ $probe = 1 ]; then
    ( cd "$src" && "$PROBE" callees -- "${TESSEL_FLAGS[@]}" "${DEVICE_FLAGS[@]}" -resource-dir "$RESOURCE_DIR" $flags "$file" ) 2>/dev/null >"$O/$name.callees"
  fi
done < "$HERE/rodinia_tus.txt"

if [ $probe = 1 ]; then
  echo "== device code calls (how many of the translation units call it; builtin = clang builtin, extern = external device function, libdevice's __nv_*):"
  cat "$O"/*.callees | sort | uniq -c | sort -k2,2 -k3,3
fi
exit $fail

# Sourced by prepare.sh and prepare_dynamic.sh (from the repository root):
# carry_tools DIR FILE... puts into DIR what the GPU machine runs there:
# bin/tessel-bench and bin/tessel-run (the Release runtime, built in
# $RT_BUILD, default /tmp/rt-bench), the importer (frontends/onnx, to write
# the weights from the full model there) and the given driver files.
carry_tools() {
  local dir=$1 rt=${RT_BUILD:-/tmp/rt-bench}
  shift
  mkdir -p "$dir/bin" "$dir/modules" "$dir/frontends"
  cmake -S runtime -B "$rt" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$rt" tessel-bench tessel-run >/dev/null
  cp "$rt/tessel-bench" "$rt/tessel-run" "$dir/bin/"
  rm -rf "$dir/frontends/onnx" && cp -r frontends/onnx "$dir/frontends/"
  cp "$@" "$dir/"
}

#!/usr/bin/env python3
"""Diff the ABI of Tessel's CUDA headers against a CUDA toolkit.

Input: two listings written by `cuda_header_probe abi` (tools/), one for
Tessel's headers and one for the toolkit's, of the same translation unit
(abi_all.cu). Every declaration of Tessel's headers must match the toolkit's
declaration of the same name:

  fn       same symbol (mangled name), canonical type, number of default args
           (functions are matched by name and canonical type, so overloads
           pair up); the execution space must agree too
  enum     same value for every enumerator
  typedef  same canonical type
  record   same size and alignment, same offset and type for every field

A Tessel declaration without a toolkit counterpart is reported separately:
such entries must be listed in ALLOWED_EXTRA below (Tessel-internal helpers,
and source-compatibility shims for APIs CUDA 13 removed).

Exit status 0 when everything matches.
"""
import re
import sys

# Tessel-only declarations (names), with the reason.
ALLOWED_EXTRA = {
    # CUDA 13 removed these; kept as inline forwarders (TESSEL_CUDA_NO_LEGACY_API
    # drops them).
    "cudaThreadSynchronize", "cudaThreadExit", "cudaThreadSetLimit",
    "cudaThreadGetLimit", "cudaThreadGetCacheConfig",
    "cudaThreadSetCacheConfig", "__tessel_cudaGetDeviceProperties",
    # ... and the CUDA 12 fields of cudaDeviceProp, kept in its reserved tail.
    "cudaDeviceProp.clockRate", "cudaDeviceProp.deviceOverlap",
    "cudaDeviceProp.kernelExecTimeoutEnabled", "cudaDeviceProp.computeMode",
    "cudaDeviceProp.maxTexture1DLinear", "cudaDeviceProp.memoryClockRate",
    "cudaDeviceProp.singleToDoublePrecisionPerfRatio",
    "cudaDeviceProp.cooperativeMultiDeviceLaunch",
    # The toolkit declares these in headers that clang's wrapper does not
    # include (crt/device_functions.h, host_runtime.h) or not at all under
    # clang; clang needs them.
    "__cudaPushCallConfiguration", "cudaConfigureCall",
    # Host forms of CUDA's integer min/max helpers: nvcc declares them
    # __host__ __device__; clang + toolkit only has the device forms.
    "umin", "umax", "llmin", "llmax", "ullmin", "ullmax", "min", "max",
}

# Functions whose execution space deliberately differs from clang + toolkit
# (h: __host__, d: __device__, hd: both). nvcc declares CUDA's min/max and the
# float overloads of rsqrt & co. __host__ __device__; clang's wrapper around
# the toolkit leaves min/max device-only and the float overloads host-only.
# Tessel follows nvcc (separate host and device definitions).
ALLOWED_SPACE = {"min", "max", "umin", "umax", "llmin", "llmax", "ullmin",
                 "ullmax", "rsqrt", "rcbrt", "sinpi", "cospi", "sincospi",
                 "erfcinv", "normcdfinv", "normcdf", "erfcx"}


def norm(text):
    """Anonymous types print with their file position; drop it."""
    return re.sub(r"\(unnamed at [^)]*\)", "(unnamed)", text)


def parse(path):
    fns, other = {}, {}
    for line in open(path):
        line = line.rstrip("\n")
        line = norm(line)
        if line.startswith("fn "):
            m = re.match(r"fn (\S+) (\S+) (\S+) sym=(\S+) type=(.*) defaults=(\d+)$", line)
            name, kind, space, sym, typ, dflt = m.groups()
            fns.setdefault(name, {})[(typ, space)] = dict(kind=kind, sym=sym, defaults=dflt)
        elif line.startswith("enum "):
            key, val = line[5:].split(" = ")
            other["enum " + key] = val
        elif line.startswith("typedef "):
            key, val = line[8:].split(" = ", 1)
            other["typedef " + key] = val
        elif line.startswith("record "):
            name, rest = line[7:].split(" ", 1)
            other["record " + name] = rest
        elif line.startswith("field "):
            name, rest = line[6:].split(" ", 1)
            other["field " + name] = rest
    return fns, other


def main():
    ours_fns, ours = parse(sys.argv[1])
    sdk_fns, sdk = parse(sys.argv[2])
    bad, extra, checked = [], [], 0

    for key, val in sorted(ours.items()):
        name = key.split(" ", 1)[1]
        base = re.split(r"[.:]", name)[0]
        if key not in sdk:
            allowed = (base in ALLOWED_EXTRA or name in ALLOWED_EXTRA or
                       base.startswith("__tessel"))
            (extra if allowed else bad).append(
                "%s: not in the toolkit (ours: %s)" % (key, val))
            continue
        checked += 1
        if sdk[key] != val:
            bad.append("%s: ours %s, toolkit %s" % (key, val, sdk[key]))

    for name, overloads in sorted(ours_fns.items()):
        for (typ, space), d in sorted(overloads.items()):
            if name not in sdk_fns:
                (extra if name in ALLOWED_EXTRA or name.startswith("__tessel")
                 else bad).append(
                    "fn %s %s [%s]: not in the toolkit" % (name, typ, space))
                continue
            s = sdk_fns[name].get((typ, space))
            if s is None:
                others = sorted(sp for (t, sp) in sdk_fns[name] if t == typ)
                msg = "fn %s %s [%s]: the toolkit has %s" % (
                    name, typ, space,
                    ("it as [%s]" % ",".join(others)) if others else
                    "other overloads only: %s" % sorted(sdk_fns[name]))
                (extra if name in ALLOWED_SPACE else bad).append(msg)
                continue
            checked += 1
            for field in ("sym", "defaults"):
                if d[field] != s[field]:
                    bad.append("fn %s %s: %s ours %s, toolkit %s"
                               % (name, typ, field, d[field], s[field]))
            if d["kind"] == "extern" and s["kind"] != "extern":
                bad.append("fn %s %s: extern in ours, inline in the toolkit" % (name, typ))

    print("checked %d declarations against the toolkit" % checked)
    if extra:
        print("Tessel-only (allowed): %d" % len(extra))
        for e in extra:
            print("  " + e)
    if bad:
        print("MISMATCHES: %d" % len(bad))
        for b in bad:
            print("  " + b)
        return 1
    print("no mismatches")
    return 0


if __name__ == "__main__":
    sys.exit(main())

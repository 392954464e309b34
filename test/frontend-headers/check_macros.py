#!/usr/bin/env python3
"""Diff the macros of Tessel's CUDA headers against a CUDA toolkit's.

Arguments: three `clang++ -E -dM` outputs of the same file: without any CUDA
headers (baseline), with Tessel's headers, with the toolkit (clang's
__clang_cuda_runtime_wrapper.h). Every macro that Tessel's headers define
(ours minus baseline) and the toolkit defines too must have the same
definition (whitespace-normalized). Macros only Tessel defines are listed;
they must be Tessel-internal (__TESSEL*) or in ALLOWED_EXTRA.
"""
import re
import sys

# Defined by Tessel but not by clang + toolkit, with the reason.
ALLOWED_EXTRA = {
    # Include guards of toolkit files, defined so that nothing includes them.
    "__VECTOR_FUNCTIONS_HPP__", "__TEXTURE_INDIRECT_FUNCTIONS_HPP__",
    "__SM_70_RT_H__", "__CHANNEL_DESCRIPTOR_H__", "__DRIVER_FUNCTIONS_H__",
    "__CUDA_RUNTIME_H__",
    # Source compatibility with CUDA 12 (cudaDeviceProp fields).
    "cudaGetDeviceProperties",
}
# Same name, deliberately different definition (reason in the README).
ALLOWED_DIFF = {
    # Tessel spells the keywords as plain clang attributes; the toolkit goes
    # through __location__/__annotate__, which expand to the same.
    "__host__", "__device__", "__global__", "__shared__", "__constant__",
    "__managed__", "__grid_constant__", "__launch_bounds__",
    # nvcc defines __CUDACC__ as 1; clang's wrapper leaves it empty.
    "__CUDACC__",
    # Different include-guard spellings.
    "__CUDA_RUNTIME_API_H__",
    # Annotations that clang ignores: the toolkit spells them as attributes
    # clang does not know (unknown-attribute warnings) or ignores; Tessel
    # defines them empty (or as the plain GNU attribute).
    "__cudart_builtin__", "__device_builtin__",
    "__device_builtin_surface_type__", "__device_builtin_texture_type__",
    "__inline_hint__", "__maxnreg__", "__local_maxnreg__", "__nv_pure__",
}


def parse(path):
    out = {}
    for line in open(path):
        m = re.match(r"#define (\w+(?:\([^)]*\))?)\s*(.*)$", line.rstrip("\n"))
        if not m:
            continue
        head, body = m.groups()
        name = re.match(r"\w+", head).group(0)
        out[name] = (head, " ".join(body.split()))
    return out


def main():
    base, ours, sdk = (parse(p) for p in sys.argv[1:4])
    mine = {k: v for k, v in ours.items() if k not in base}
    bad, extra, checked = [], [], 0
    for name, val in sorted(mine.items()):
        if name.startswith("__TESSEL"):
            continue
        if name not in sdk:
            (extra if name in ALLOWED_EXTRA else bad).append(
                "%s: not defined by the toolkit (ours: %s %s)" % (name, val[0], val[1]))
            continue
        checked += 1
        if sdk[name] != val and name not in ALLOWED_DIFF:
            bad.append("%s: ours `%s %s`, toolkit `%s %s`" % (name, val[0], val[1], sdk[name][0], sdk[name][1]))
    print("checked %d macros against the toolkit" % checked)
    for e in extra:
        print("  allowed, Tessel-only: " + e)
    if bad:
        print("MISMATCHES: %d" % len(bad))
        for b in bad:
            print("  " + b)
        return 1
    print("no mismatches")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Rewrite `k << < grid, block >> > (args)` into `k <<< grid, block >>> (args)`.

nvcc accepts a kernel launch whose chevrons are split by spaces; clang lexes
`<<` `<` and `>>` `>` and rejects it, and no header can change that. This is
the source rewrite a frontend would need (only `<<` followed by blanks and `<`,
which is never valid C++ otherwise, and the `>> >` that closes it on the same
statement). Used by run_rodinia.sh to show that particlefilter_float needs
nothing else. Usage: respace_launches.py <in.cu> <out.cu>
"""
import re
import sys

src = open(sys.argv[1]).read()
out, n = re.subn(r"<<\s+<(?!<)([^;<>]*(?:<[^;<>]*>[^;<>]*)*?)>>\s+>",
                 lambda m: "<<<" + m.group(1) + ">>>", src)
open(sys.argv[2], "w").write(out)
print("%d launches respaced" % n, file=sys.stderr)

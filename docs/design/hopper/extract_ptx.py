#!/usr/bin/env python3
"""Prints the PTX held by the first #gpu.object in an mlir-opt output of
gpu-module-to-binary{format=isa}. Usage: extract_ptx.py IN.mlir > OUT.ptx"""
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r'#gpu\.object<#nvvm\.target[^>]*>,\s*(?:properties = \{[^}]*\},\s*)?(?:assembly = )?"', text)
if not m:
    sys.exit("no #gpu.object in " + sys.argv[1])
i, out = m.end(), bytearray()
while text[i] != '"':
    if text[i] == '\\':
        nxt = text[i + 1]
        if nxt in '\\"':
            out += nxt.encode(); i += 2
        elif nxt == 'n':
            out += b'\n'; i += 2
        elif nxt == 't':
            out += b'\t'; i += 2
        else:
            out.append(int(text[i + 1:i + 3], 16)); i += 3
    else:
        out += text[i].encode(); i += 1
sys.stdout.write(out.rstrip(b'\0').decode())

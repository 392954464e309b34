// Dynamic shapes (issue 39): one module for every extent. The host program
// reads each dynamic dimension (Dim), checks the ones an op indexes by one
// loop (Assert, with both extents in the message), allocates from them and
// passes them to the kernel as push constants; the kernel's workgroup count
// is a program over them. Results carry their extents (Return).
// RUN: tessel-compile %s --target=cpu -o %t.tmod
// RUN: tessel-run --print-module %t.tmod | FileCheck %s --check-prefix=LIST
// RUN: tessel-run %t.tmod --function=add --input="2x3xf32=1,2,3,4,5,6" --input="2x3xf32=10,20,30,40,50,60" 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: tessel-run %t.tmod --function=add --input="1x5xf32=1" --input="1x5xf32=2" 2>&1 | FileCheck %s --check-prefix=OUT2
// RUN: not tessel-run %t.tmod --function=add --input="2x3xf32=1" --input="2x4xf32=1" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tessel-run %t.tmod --function=add --input="2x3xf32=1" --input="2x3x1xf32=1" 2>&1 | FileCheck %s --check-prefix=RANK

// LIST: function add(?x?xf32, ?x?xf32) -> (?x?xf32)
// LIST: Dim i{{[0-9]+}}, #0, #0
// LIST: Dim i{{[0-9]+}}, #1, #1
// LIST: Assert i{{[0-9]+}}, #{{[0-9]+}}, i{{[0-9]+}}, i{{[0-9]+}} "argument 1 dimension 1 is {} but argument 0 dimension 1 is {} (they must be equal)"
// LIST: Dispatch #0, b0, b1, b2, i{{[0-9]+}}, i{{[0-9]+}}, i{{[0-9]+}}, i{{[0-9]+}}, i{{[0-9]+}}, i{{[0-9]+}}
// LIST: Return b2, i{{[0-9]+}}, i{{[0-9]+}}
// LIST: export 0: add_dispatch_0, workgroups from a program of {{[0-9]+}} instructions, 3 bindings, 6 push constants

// OUT: 2x3xf32={{\[\[}}11 22 33][44 55 66]]
// OUT2: 1x5xf32={{\[\[}}3 3 3 3 3]]
// BAD: function 'add': argument 1 dimension 1 is 4 but argument 0 dimension 1 is 3 (they must be equal)
// RANK: function 'add': argument 1 has type 2x3x1xf32 but expected ?x?xf32
func.func @add(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = arith.addf %a, %b : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

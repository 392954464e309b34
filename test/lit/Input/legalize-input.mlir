// RUN: tessel-opt %s --tessel-legalize-input=split-reductions-for=cuda,cpu --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-legalize-input --split-input-file | FileCheck %s --check-prefix=NOSPLIT
// RUN: not tessel-opt %s --tessel-legalize-input=split-reductions-for=cuda,tpu 2>&1 | FileCheck %s --check-prefix=BAD-TARGET

// BAD-TARGET: error: split-reductions-for: unknown target 'tpu' (expected cuda or cpu)

// arith and math ops on tensors become one elementwise linalg.generic each.
// CHECK-LABEL: func.func @arith_math_on_tensors
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>, %[[B:.+]]: tensor<37x53xf32>)
// CHECK-NOT: arith.addf {{.*}} : tensor
// CHECK: %[[ADD:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<37x53xf32>, tensor<37x53xf32>)
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: %[[EXP:.+]] = linalg.generic
// CHECK-SAME: ins(%[[ADD]] : tensor<37x53xf32>)
// CHECK: math.exp %{{.+}} : f32
// CHECK: return %[[EXP]]
func.func @arith_math_on_tensors(%a: tensor<37x53xf32>, %b: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %0 = arith.addf %a, %b : tensor<37x53xf32>
  %1 = math.exp %0 : tensor<37x53xf32>
  return %1 : tensor<37x53xf32>
}

// -----

// Comparisons and selects on tensors become generics producing/consuming i1.
// CHECK-LABEL: func.func @cmp_select
// CHECK-NOT: arith.cmpf {{.*}} : tensor
// CHECK: %[[CMP:.+]] = linalg.generic
// CHECK: arith.cmpf olt, %{{.+}}, %{{.+}} : f32
// CHECK: -> tensor<37x53xi1>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[CMP]], %{{.+}}, %{{.+}} : tensor<37x53xi1>, tensor<37x53xf32>, tensor<37x53xf32>)
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
func.func @cmp_select(%a: tensor<37x53xf32>, %b: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %c = arith.cmpf olt, %a, %b : tensor<37x53xf32>
  %s = arith.select %c, %a, %b : tensor<37x53xi1>, tensor<37x53xf32>
  return %s : tensor<37x53xf32>
}

// -----

// linalg.softmax is decomposed into max-reduce, exp, sum-reduce and divide.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.softmax
// CHECK: linalg.fill
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.maxnumf
// CHECK: %[[EXP:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%{{.+}}, %[[MAX]] : tensor<37x53xf32>, tensor<37xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[EXP]] : tensor<37x53xf32>)
// CHECK: arith.addf
// CHECK: %[[DIV:.+]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<37x53xf32>, tensor<37xf32>)
// CHECK: arith.divf
// CHECK: return %[[DIV]]
func.func @softmax(%a: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %e = tensor.empty() : tensor<37x53xf32>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  return %0 : tensor<37x53xf32>
}

// -----

// tensor.pad becomes a fill of the padding value plus an insert_slice.
// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>)
// CHECK-NOT: tensor.pad
// CHECK-DAG: %[[CST:.+]] = arith.constant 1.500000e+00 : f32
// CHECK-DAG: %[[EMPTY:.+]] = tensor.empty() : tensor<40x58xf32>
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[EMPTY]] : tensor<40x58xf32>)
// CHECK: %[[INS:.+]] = tensor.insert_slice %[[A]] into %[[FILL]][1, 2] [37, 53] [1, 1]
// CHECK: return %[[INS]]
func.func @pad(%a: tensor<37x53xf32>) -> tensor<40x58xf32> {
  %cst = arith.constant 1.5 : f32
  %0 = tensor.pad %a low[1, 2] high[2, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<37x53xf32> to tensor<40x58xf32>
  return %0 : tensor<40x58xf32>
}

// -----

// tensor.concat becomes a chain of insert_slices into an empty tensor.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>, %[[B:.+]]: tensor<37x5xf32>)
// CHECK-NOT: tensor.concat
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<37x58xf32>
// CHECK: %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [37, 53] [1, 1]
// CHECK: %[[I1:.+]] = tensor.insert_slice %[[B]] into %[[I0]][0, 53] [37, 5] [1, 1]
// CHECK: return %[[I1]]
func.func @concat(%a: tensor<37x53xf32>, %b: tensor<37x5xf32>) -> tensor<37x58xf32> {
  %0 = tensor.concat dim(1) %a, %b : (tensor<37x53xf32>, tensor<37x5xf32>) -> tensor<37x58xf32>
  return %0 : tensor<37x58xf32>
}

// -----

// Elementwise, transpose and reduce named ops are generalized; fills and
// contractions (matmul) stay named.
// CHECK-LABEL: func.func @named_ops
// CHECK-NOT: linalg.add
// CHECK-NOT: linalg.exp
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.reduce
// CHECK: %[[ADD:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.addf
// CHECK: %[[EXP:.+]] = linalg.generic {{.*}} ins(%[[ADD]] : tensor<37x53xf32>)
// CHECK: math.exp
// CHECK: linalg.generic {indexing_maps = [#[[$TMAP:.+]], #{{.+}}]{{.*}} ins(%[[EXP]] : tensor<37x53xf32>) outs(%{{.+}} : tensor<53x37xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<37xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[EXP]] : tensor<37x53xf32>) outs(%[[ZERO]] : tensor<37xf32>)
// CHECK: linalg.fill
// CHECK: linalg.matmul ins(%[[EXP]], %{{.+}} : tensor<37x53xf32>, tensor<53x11xf32>)
func.func @named_ops(%a: tensor<37x53xf32>, %b: tensor<37x53xf32>, %w: tensor<53x11xf32>)
    -> (tensor<53x37xf32>, tensor<37xf32>, tensor<37x11xf32>) {
  %e = tensor.empty() : tensor<37x53xf32>
  %0 = linalg.add ins(%a, %b : tensor<37x53xf32>, tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %1 = linalg.exp ins(%0 : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %et = tensor.empty() : tensor<53x37xf32>
  %2 = linalg.transpose ins(%1 : tensor<37x53xf32>) outs(%et : tensor<53x37xf32>) permutation = [1, 0]
  %cst = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<37xf32>
  %z = linalg.fill ins(%cst : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %3 = linalg.reduce ins(%1 : tensor<37x53xf32>) outs(%z : tensor<37xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %em = tensor.empty() : tensor<37x11xf32>
  %zm = linalg.fill ins(%cst : f32) outs(%em : tensor<37x11xf32>) -> tensor<37x11xf32>
  %4 = linalg.matmul ins(%1, %w : tensor<37x53xf32>, tensor<53x11xf32>) outs(%zm : tensor<37x11xf32>) -> tensor<37x11xf32>
  return %2, %3, %4 : tensor<53x37xf32>, tensor<37xf32>, tensor<37x11xf32>
}

// -----

// Convolutions, batch matmuls and broadcasts: convs and contractions stay
// named, linalg.broadcast is generalized.
// CHECK-LABEL: func.func @conv_and_broadcast
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.broadcast
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]{{.*}} ins(%{{.+}} : tensor<3x5xf32>) outs(%{{.+}} : tensor<3x7x5xf32>)
func.func @conv_and_broadcast(%in: tensor<1x9x11x3xf32>, %f: tensor<3x3x3x5xf32>,
                              %x: tensor<3x7x4xf32>, %y: tensor<3x4x5xf32>, %v: tensor<3x5xf32>)
    -> (tensor<1x7x9x5xf32>, tensor<3x7x5xf32>, tensor<3x7x5xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x9x5xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x7x9x5xf32>) -> tensor<1x7x9x5xf32>
  %0 = linalg.conv_2d_nhwc_hwcf ins(%in, %f : tensor<1x9x11x3xf32>, tensor<3x3x3x5xf32>) outs(%z : tensor<1x7x9x5xf32>) -> tensor<1x7x9x5xf32>
  %eb = tensor.empty() : tensor<3x7x5xf32>
  %zb = linalg.fill ins(%cst : f32) outs(%eb : tensor<3x7x5xf32>) -> tensor<3x7x5xf32>
  %1 = linalg.batch_matmul ins(%x, %y : tensor<3x7x4xf32>, tensor<3x4x5xf32>) outs(%zb : tensor<3x7x5xf32>) -> tensor<3x7x5xf32>
  %2 = linalg.broadcast ins(%v : tensor<3x5xf32>) outs(%eb : tensor<3x7x5xf32>) dimensions = [1]
  return %0, %1, %2 : tensor<1x7x9x5xf32>, tensor<3x7x5xf32>, tensor<3x7x5xf32>
}

// -----

// Already-legal input (generic + fill) is left unchanged.
// CHECK-LABEL: func.func @already_legal
// CHECK: %[[F:.+]] = linalg.fill
// CHECK: %[[G:.+]] = linalg.generic {{.*}} outs(%[[F]] : tensor<37xf32>)
// CHECK: return %[[G]]
#id = affine_map<(d0) -> (d0)>
func.func @already_legal(%a: tensor<37xf32>) -> tensor<37xf32> {
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<37xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<37xf32>) outs(%f : tensor<37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<37xf32>
  return %g : tensor<37xf32>
}

// -----

// A reduction of 2^20 elements into one is split: partial sums over 1024
// chunks of 1024 (a parallel loop), then a reduction of the 1024 partials.
// The thresholds are the targets' (TargetTraits): without targets nothing
// is split.
// CHECK-LABEL: func.func @split_full_sum
// NOSPLIT-LABEL: func.func @split_full_sum
// NOSPLIT-NOT: tensor.expand_shape
// NOSPLIT: linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%{{.+}} : tensor<1048576xf32>) outs(%{{.+}} : tensor<f32>)
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [1024, 1024] : tensor<1048576xf32> into tensor<1024x1024xf32>
// CHECK: %[[PARTIAL:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%{{.+}} : tensor<1024xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%[[PARTIAL]] : tensor<1024xf32>) outs(%{{.+}} : tensor<f32>)
func.func @split_full_sum(%a: tensor<1048576xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%a : tensor<1048576xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// -----

// An input read backwards (-d2 + 2: ONNX Slice with a negative step) is
// read with tensor.extract at the mirrored index, since tiling cannot slice
// a decreasing map; the other input keeps its map.
// CHECK-LABEL: func.func @reversed_read
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<3x6x3xf32>) outs
// CHECK: %[[I2:.+]] = linalg.index 2 : index
// CHECK: %[[M:.+]] = arith.muli %[[I2]], %c-1
// CHECK: %[[R:.+]] = arith.addi %[[M]], %c2
// CHECK: tensor.extract %arg0[%{{.+}}, %{{.+}}, %[[R]]] : tensor<3x6x3xf32>
// CHECK: arith.addf
func.func @reversed_read(%x: tensor<3x6x3xf32>, %y: tensor<3x6x3xf32>) -> tensor<3x6x3xf32> {
  %e = tensor.empty() : tensor<3x6x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, -d2 + 2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %y : tensor<3x6x3xf32>, tensor<3x6x3xf32>) outs(%e : tensor<3x6x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<3x6x3xf32>
  return %r : tensor<3x6x3xf32>
}

// -----

// cf.assert in a function body is the host program's check, tessel.assert.
// CHECK-LABEL: func.func @host_assert
// CHECK: %[[OK:.+]] = arith.cmpi sle
// CHECK-NEXT: tessel.assert %[[OK]], "sequence too long"
// CHECK-NOT: cf.assert
func.func @host_assert(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %d = tensor.dim %a, %c0 : tensor<?xf32>
  %ok = arith.cmpi sle, %d, %c512 : index
  cf.assert %ok, "sequence too long"
  return %a : tensor<?xf32>
}

// RUN: tessel-opt %s --tessel-collapse-contraction-dims --canonicalize --split-input-file | FileCheck %s

// A 1x1 convolution with unit strides is a matmul of the input viewed as
// [N*H*W, C] and the filter as [C, F]; its bias consumer runs on the
// collapsed shape, so that it can be the matmul's epilogue.
// CHECK-LABEL: func.func @conv1x1
// CHECK-DAG: %[[X:.+]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2], [3]] : tensor<2x5x7x16xf16> into tensor<70x16xf16>
// CHECK-DAG: %[[W:.+]] = tensor.collapse_shape %arg1 {{\[}}[0, 1, 2], [3]] : tensor<1x1x16x8xf16> into tensor<16x8xf16>
// CHECK-DAG: %[[C:.+]] = tensor.collapse_shape %arg2 {{\[}}[0, 1, 2], [3]] : tensor<2x5x7x8xf32> into tensor<70x8xf32>
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<70x16xf16>, tensor<16x8xf16>) outs(%[[C]] : tensor<70x8xf32>)
// CHECK: %[[BIAS:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[MM]], %arg3 : tensor<70x8xf32>, tensor<8xf32>)
// CHECK: tensor.expand_shape %[[BIAS]] {{\[}}[0, 1, 2], [3]] output_shape [2, 5, 7, 8]
func.func @conv1x1(%x: tensor<2x5x7x16xf16>, %w: tensor<1x1x16x8xf16>, %z: tensor<2x5x7x8xf32>, %b: tensor<8xf32>) -> tensor<2x5x7x8xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x5x7x16xf16>, tensor<1x1x16x8xf16>) outs(%z : tensor<2x5x7x8xf32>) -> tensor<2x5x7x8xf32>
  %e = tensor.empty() : tensor<2x5x7x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<2x5x7x8xf32>, tensor<8xf32>) outs(%e : tensor<2x5x7x8xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<2x5x7x8xf32>
  return %r : tensor<2x5x7x8xf32>
}

// -----

// A strided 1x1 convolution reads every other pixel: not a matmul view.
// CHECK-LABEL: func.func @conv1x1_strided
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
func.func @conv1x1_strided(%x: tensor<1x9x9x16xf16>, %w: tensor<1x1x16x8xf16>, %z: tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x16xf16>, tensor<1x1x16x8xf16>) outs(%z : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  return %c : tensor<1x5x5x8xf32>
}

// -----

// What elementwise fusion makes of a matmul between reshapes: a generic
// with three M loops and two unit K loops. The unit loops go and the M
// loops become one: a plain (m, n, k) contraction on collapsed views.
// CHECK-LABEL: func.func @reshaped_matmul
// CHECK-DAG: tensor.collapse_shape %arg0 {{\[}}[0, 1, 2, 3, 4], [5]] : tensor<1x56x56x1x1x64xf16> into tensor<3136x64xf16>
// CHECK-DAG: tensor.collapse_shape %arg1 {{\[}}[0, 1, 2], [3]] : tensor<1x1x64x128xf16> into tensor<64x128xf16>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: tensor<3136x64xf16>, tensor<64x128xf16>
// CHECK: tensor.expand_shape {{.*}} output_shape [1, 56, 56, 128]
func.func @reshaped_matmul(%a: tensor<1x56x56x1x1x64xf16>, %b: tensor<1x1x64x128xf16>, %c: tensor<1x56x56x128xf32>) -> tensor<1x56x56x128xf32> {
  %r = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, f, kh, kw, ci) -> (n, h, w, kh, kw, ci)>,
                       affine_map<(n, h, w, f, kh, kw, ci) -> (kh, kw, ci, f)>,
                       affine_map<(n, h, w, f, kh, kw, ci) -> (n, h, w, f)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%a, %b : tensor<1x56x56x1x1x64xf16>, tensor<1x1x64x128xf16>) outs(%c : tensor<1x56x56x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x56x56x128xf32>
  return %r : tensor<1x56x56x128xf32>
}

// -----

// A linear layer on [batch, seq, hidden] with dynamic batch and sequence:
// the two M loops become one dynamic M (batch * seq), and the bias chain
// after it runs on the collapsed shape, so it stays the matmul's epilogue
// (the extents of the result's expand_shape come from the input, so the
// matmul's result has no other user).
// CHECK-LABEL: func.func @dynamic_linear
// CHECK: %[[X:.+]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<?x?x64xf16> into tensor<?x64xf16>
// CHECK: %[[MM:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]], %arg1 : tensor<?x64xf16>, tensor<96x64xf16>)
// CHECK-NOT: tensor.expand_shape %[[MM]]
// CHECK: linalg.generic {{.+}} ins(%[[MM]], %arg2 : tensor<?x96xf32>, tensor<96xf32>)
// CHECK: tensor.expand_shape
// CHECK-SAME: into tensor<?x?x96xf16>
#lx = affine_map<(b, s, n, k) -> (b, s, k)>
#lw = affine_map<(b, s, n, k) -> (n, k)>
#lo = affine_map<(b, s, n, k) -> (b, s, n)>
#lid = affine_map<(b, s, n) -> (b, s, n)>
#lc = affine_map<(b, s, n) -> (n)>
func.func @dynamic_linear(%x: tensor<?x?x64xf16>, %w: tensor<96x64xf16>, %bias: tensor<96xf32>) -> tensor<?x?x96xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x?x64xf16>
  %s = tensor.dim %x, %c1 : tensor<?x?x64xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%b, %s) : tensor<?x?x96xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x96xf32>) -> tensor<?x?x96xf32>
  %mm = linalg.generic {indexing_maps = [#lx, #lw, #lo], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<?x?x64xf16>, tensor<96x64xf16>) outs(%z : tensor<?x?x96xf32>) {
  ^bb0(%a: f16, %bb: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %bb : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<?x?x96xf32>
  %o = tensor.empty(%b, %s) : tensor<?x?x96xf16>
  %r = linalg.generic {indexing_maps = [#lid, #lc, #lid], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<?x?x96xf32>, tensor<96xf32>) outs(%o : tensor<?x?x96xf16>) {
  ^bb0(%v: f32, %bv: f32, %out: f16):
    %t = arith.addf %v, %bv : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x?x96xf16>
  return %r : tensor<?x?x96xf16>
}

// -----

// The same linear layer whose result is then split into heads through a
// collapse_shape and an expand_shape (what elementwise fusion leaves with
// dynamic extents): the collapse undoes the epilogue's expand_shape, and
// the bias over [heads, head_dim] after the split runs on the collapsed
// shape as well, in the matmul's epilogue chain.
// CHECK-LABEL: func.func @dynamic_linear_heads
// CHECK: %[[MM:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[T:.+]] = linalg.generic {{.+}} ins(%[[MM]] : tensor<?x96xf32>)
// CHECK: %[[BIAS:.+]] = tensor.collapse_shape %arg2 {{\[}}[0, 1]] : tensor<12x8xf16> into tensor<96xf16>
// CHECK: linalg.generic {{.+}} ins(%[[T]], %[[BIAS]] : tensor<?x96xf16>, tensor<96xf16>)
// CHECK: tensor.expand_shape
// CHECK-SAME: into tensor<?x?x12x8xf16>
#hx = affine_map<(b, s, n, k) -> (b, s, k)>
#hw = affine_map<(b, s, n, k) -> (n, k)>
#ho = affine_map<(b, s, n, k) -> (b, s, n)>
#hid3 = affine_map<(b, s, n) -> (b, s, n)>
#hid4 = affine_map<(b, s, h, d) -> (b, s, h, d)>
#hc4 = affine_map<(b, s, h, d) -> (h, d)>
func.func @dynamic_linear_heads(%x: tensor<?x?x64xf16>, %w: tensor<96x64xf16>, %bias: tensor<12x8xf16>) -> tensor<?x?x12x8xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x?x64xf16>
  %s = tensor.dim %x, %c1 : tensor<?x?x64xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%b, %s) : tensor<?x?x96xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x96xf32>) -> tensor<?x?x96xf32>
  %mm = linalg.generic {indexing_maps = [#hx, #hw, #ho], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<?x?x64xf16>, tensor<96x64xf16>) outs(%z : tensor<?x?x96xf32>) {
  ^bb0(%a: f16, %bb: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %bb : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<?x?x96xf32>
  %o = tensor.empty(%b, %s) : tensor<?x?x96xf16>
  %t = linalg.generic {indexing_maps = [#hid3, #hid3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm : tensor<?x?x96xf32>) outs(%o : tensor<?x?x96xf16>) {
  ^bb0(%v: f32, %out: f16):
    %h = arith.truncf %v : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x?x96xf16>
  %rows = arith.muli %b, %s : index
  %flat = tensor.collapse_shape %t [[0, 1], [2]] : tensor<?x?x96xf16> into tensor<?x96xf16>
  %heads = tensor.expand_shape %flat [[0, 1], [2, 3]] output_shape [%b, %s, 12, 8] : tensor<?x96xf16> into tensor<?x?x12x8xf16>
  %o4 = tensor.empty(%b, %s) : tensor<?x?x12x8xf16>
  %r = linalg.generic {indexing_maps = [#hid4, #hc4, #hid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heads, %bias : tensor<?x?x12x8xf16>, tensor<12x8xf16>) outs(%o4 : tensor<?x?x12x8xf16>) {
  ^bb0(%v: f16, %bv: f16, %out: f16):
    %a = arith.addf %v, %bv : f16
    linalg.yield %a : f16
  } -> tensor<?x?x12x8xf16>
  return %r : tensor<?x?x12x8xf16>
}

// RUN: tessel-opt %s --tessel-verify-input --split-input-file --verify-diagnostics | FileCheck %s

// TOSA ops that MLIR 22's TOSA-to-linalg/arith/tensor conversions lower pass
// through unchanged (test/e2e/cases/tosa_* compile and run each of them).
// CHECK-LABEL: func.func @accepted
// CHECK: tosa.add
// CHECK: tosa.conv2d
// CHECK: tosa.reshape
// CHECK: tosa.rescale
// CHECK: tosa.resize
func.func @accepted(%a: tensor<1x8x8x4xf32>, %b: tensor<1x1x1x4xf32>, %w: tensor<5x3x3x4xf32>,
                    %bias: tensor<5xf32>, %q: tensor<2x7xi32>, %r: tensor<1x5x7x3xi8>)
    -> (tensor<1x6x6x5xf32>, tensor<256xf32>, tensor<2x7xi8>, tensor<1x10x14x3xi32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.add %a, %b : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
  %1 = tosa.conv2d %0, %w, %bias, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<5x3x3x4xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x5xf32>
  %s = tosa.const_shape {values = dense<[256]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %2 = tosa.reshape %0, %s : (tensor<1x8x8x4xf32>, !tosa.shape<1>) -> tensor<256xf32>
  %m = "tosa.const"() <{values = dense<1518500250> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sh = "tosa.const"() <{values = dense<38> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = tosa.rescale %q, %m, %sh, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<2x7xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x7xi8>
  // Integer BILINEAR with a non-negative offset is lowered correctly.
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %4 = tosa.resize %r, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x5x7x3xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x10x14x3xi32>
  return %1, %2, %3, %4 : tensor<1x6x6x5xf32>, tensor<256xf32>, tensor<2x7xi8>, tensor<1x10x14x3xi32>
}

// -----

func.func @custom(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unsupported op 'tosa.custom': a custom TOSA op has no lowering}}
  %0 = tosa.custom %a {domain_name = "tessel_test", implementation_attrs = "", operator_name = "frob"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A variable is a module-level op (named as such); its reads and writes are
// rejected in the function.
// expected-error @+1 {{'tosa.variable' is not supported at module level (expected func.func or ml_program.global)}}
tosa.variable @state = dense<0.0> : tensor<4xf32>
func.func @variable(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unsupported op 'tosa.variable_read': TOSA variables (state kept between calls) are not supported}}
  %0 = tosa.variable_read @state : tensor<4xf32>
  %1 = tosa.add %0, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{unsupported op 'tosa.variable_write': TOSA variables (state kept between calls) are not supported}}
  tosa.variable_write @state, %1 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @scatter(%v: tensor<2x9x3xf32>, %i: tensor<2x4xi32>, %u: tensor<2x4x3xf32>) -> tensor<2x9x3xf32> {
  // expected-error @+1 {{unsupported op 'tosa.scatter': MLIR 22 has no lowering of tosa.scatter to linalg; use tessel.scatter}}
  %0 = tosa.scatter %v, %i, %u : (tensor<2x9x3xf32>, tensor<2x4xi32>, tensor<2x4x3xf32>) -> tensor<2x9x3xf32>
  return %0 : tensor<2x9x3xf32>
}

// -----

// A quantized element type inside the program (the boundary types are
// plain i8/i32): each op that touches it is named.
func.func @quantized(%a: tensor<4xi8>) -> tensor<4xi32> {
  // expected-error @+1 {{unsupported op 'tosa.cast': element type !quant.uniform<i8:f32, 1.000000e-01> is not supported (quantized or other non-builtin types)}}
  %0 = tosa.cast %a : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  // expected-error @+1 {{unsupported op 'tosa.cast': element type !quant.uniform<i8:f32, 1.000000e-01> is not supported}}
  %1 = tosa.cast %0 : (tensor<4x!quant.uniform<i8:f32, 0.1>>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// TOSA ops on dynamic shapes are accepted (issue 39; whether codegen takes
// them is decided later).
func.func @dynamic_arg(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = tosa.exp %a : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Shape computations other than tosa.const_shape have no lowering.
func.func @shape_ops(%a: tensor<6x10xf32>) -> tensor<60xf32> {
  // expected-error @+1 {{unsupported op 'tosa.dim': TOSA shape computations have no lowering in MLIR 22 (shape operands must be tosa.const_shape)}}
  %d0 = tosa.dim %a {axis = 0 : i32} : (tensor<6x10xf32>) -> !tosa.shape<1>
  %c10 = tosa.const_shape {values = dense<[10]> : tensor<1xindex>} : () -> !tosa.shape<1>
  // expected-error @+1 {{unsupported op 'tosa.mul_shape': TOSA shape computations have no lowering in MLIR 22}}
  %n = tosa.mul_shape %d0, %c10 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %0 = tosa.reshape %a, %n : (tensor<6x10xf32>, !tosa.shape<1>) -> tensor<60xf32>
  return %0 : tensor<60xf32>
}

// -----

func.func @rescale_inexact(%a: tensor<2x7xi32>) -> tensor<2x7xi8> {
  %m = "tosa.const"() <{values = dense<1518500250> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sh = "tosa.const"() <{values = dense<38> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{unsupported op 'tosa.rescale': rounding_mode INEXACT_ROUND has no lowering in MLIR 22 (use SINGLE_ROUND or DOUBLE_ROUND)}}
  %0 = tosa.rescale %a, %m, %sh, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = INEXACT_ROUND, scale32 = true} : (tensor<2x7xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x7xi8>
  return %0 : tensor<2x7xi8>
}

// -----

// Integer BILINEAR resize with a negative offset: MLIR 22 lowers it with a
// truncating division (wrong border values), so it is rejected; the float
// form with the same parameters is accepted.
func.func @resize_negative_offset(%a: tensor<1x5x7x3xi8>, %f: tensor<1x5x7x3xf32>)
    -> (tensor<1x10x14x3xi32>, tensor<1x10x14x3xf32>) {
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{unsupported op 'tosa.resize': integer BILINEAR resize with a negative (or non-constant) offset: MLIR 22's lowering divides by scale_n with truncation instead of TOSA's floor division}}
  %0 = tosa.resize %a, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x5x7x3xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x10x14x3xi32>
  %1 = tosa.resize %f, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x5x7x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x10x14x3xf32>
  return %0, %1 : tensor<1x10x14x3xi32>, tensor<1x10x14x3xf32>
}

// RUN: tessel-opt %s --tessel-verify-input --split-input-file --verify-diagnostics | FileCheck %s

// A program of supported ops and types passes through unchanged.
// CHECK-LABEL: func.func @supported
// CHECK-SAME: (%{{.+}}: tensor<37x53xf32>, %{{.+}}: tensor<37x53xi1>, %{{.+}}: tensor<f16>)
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: linalg.matmul
// CHECK: return
func.func @supported(%a: tensor<37x53xf32>, %m: tensor<37x53xi1>, %s: tensor<f16>)
    -> (tensor<37x53xf32>, tensor<37x37xf32>) {
  %0 = arith.addf %a, %a : tensor<37x53xf32>
  %1 = math.exp %0 : tensor<37x53xf32>
  %2 = tensor.empty() : tensor<53x37xf32>
  %t = linalg.transpose ins(%a : tensor<37x53xf32>) outs(%2 : tensor<53x37xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<37x37xf32>
  %cst = arith.constant 0.0 : f32
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<37x37xf32>) -> tensor<37x37xf32>
  %mm = linalg.matmul ins(%1, %t : tensor<37x53xf32>, tensor<53x37xf32>) outs(%z : tensor<37x37xf32>) -> tensor<37x37xf32>
  return %1, %mm : tensor<37x53xf32>, tensor<37x37xf32>
}

// -----

// Every supported element type is accepted at the boundary, rank 0 included.
// CHECK-LABEL: func.func @all_types
func.func @all_types(%a: tensor<3xf64>, %b: tensor<3xf32>, %c: tensor<3xf16>,
                     %d: tensor<3xbf16>, %e: tensor<3xi64>, %f: tensor<3xi32>,
                     %g: tensor<3xi16>, %h: tensor<3xi8>, %i: tensor<3xi1>,
                     %j: tensor<f32>) -> tensor<f32> {
  return %j : tensor<f32>
}

// -----

// An op from an unsupported dialect is named.
func.func @unsupported_dialect(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unsupported op 'bufferization.alloc_tensor'}}
  %0 = bufferization.alloc_tensor() : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Host control flow (scf.for, scf.if, scf.while) is accepted in function
// bodies; inside a computation's body scf is named.
func.func @scf_host(%a: tensor<4xf32>, %p: tensor<i1>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a) -> tensor<4xf32> {
    %y = arith.addf %x, %x : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  %b = tensor.extract %p[] : tensor<i1>
  %s = scf.if %b -> tensor<4xf32> {
    scf.yield %r : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  return %s : tensor<4xf32>
}

func.func private @scf_in_body(%a: tensor<4xf32>, %p: i1) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    // expected-error @+1 {{unsupported op 'scf.if'}}
    %y = scf.if %p -> f32 {
      scf.yield %x : f32
    } else {
      scf.yield %o : f32
    }
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// An op with a region (scf.forall) is named once; its body is not reported.
func.func @scf_forall(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unsupported op 'scf.forall'}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %a) -> tensor<4xf32> {
    %y = bufferization.alloc_tensor() : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %y into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}

// -----

// A tensor op without a Tessel lowering (tensor.reshape) is named.
func.func @tensor_reshape(%a: tensor<6xf32>, %s: tensor<2xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{unsupported op 'tensor.reshape'}}
  %0 = tensor.reshape %a(%s) : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A dynamic shape at the boundary is rejected for the argument and the result.
// expected-error @+2 {{function 'dynamic_arg' argument 0: dynamic shape tensor<?x53xf32> is not supported}}
// expected-error @+1 {{function 'dynamic_arg' result 0: dynamic shape tensor<?x53xf32> is not supported}}
func.func @dynamic_arg(%a: tensor<?x53xf32>) -> tensor<?x53xf32> {
  return %a : tensor<?x53xf32>
}

// -----

// A dynamic shape produced inside the body is rejected, naming the op.
func.func @dynamic_inside(%a: tensor<37xf32>) -> tensor<37xf32> {
  // expected-error @+1 {{'tensor.cast': dynamic shape tensor<?xf32> is not supported}}
  %0 = tensor.cast %a : tensor<37xf32> to tensor<?xf32>
  %1 = tensor.cast %0 : tensor<?xf32> to tensor<37xf32>
  return %1 : tensor<37xf32>
}

// -----

// An unranked tensor at the boundary is rejected.
// expected-error @+1 {{function 'unranked' argument 0: unranked tensor tensor<*xf32> is not supported}}
func.func @unranked(%a: tensor<*xf32>) -> tensor<4xf32> {
  %0 = tensor.cast %a : tensor<*xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An 8-bit float element type at the boundary is named.
// expected-error @+1 {{function 'fp8' argument 0: element type f8E4M3FN in tensor<4xf8E4M3FN> is not supported}}
func.func @fp8(%a: tensor<4xf8E4M3FN>) -> tensor<4xf32> {
  %0 = arith.extf %a : tensor<4xf8E4M3FN> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A complex element type in a result is named.
// expected-error @+2 {{function 'complex_result' argument 0: element type complex<f32> in tensor<4xcomplex<f32>> is not supported}}
// expected-error @+1 {{function 'complex_result' result 0: element type complex<f32> in tensor<4xcomplex<f32>> is not supported}}
func.func @complex_result(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}

// -----

// index tensors cannot cross the host boundary.
// expected-error @+1 {{function 'index_arg' argument 0: element type index in tensor<4xindex> is not supported}}
func.func @index_arg(%a: tensor<4xindex>) -> tensor<4xf32> {
  %0 = arith.index_cast %a : tensor<4xindex> to tensor<4xi32>
  %1 = arith.sitofp %0 : tensor<4xi32> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Unsigned integers are not a supported element type.
// expected-error @+2 {{function 'unsigned' argument 0: element type ui8 in tensor<4xui8> is not supported}}
// expected-error @+1 {{function 'unsigned' result 0: element type ui8}}
func.func @unsigned(%a: tensor<4xui8>) -> tensor<4xui8> {
  return %a : tensor<4xui8>
}

// -----

// A scalar (non-tensor) argument of a public function is rejected.
// expected-error @+1 {{function 'scalar_arg' argument 0: type f32 is not supported at a function boundary (only ranked tensors are)}}
func.func @scalar_arg(%s: f32) -> tensor<4xf32> {
  %0 = tensor.splat %s : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A tensor encoding is rejected.
#enc = {sparse = true}
// expected-error @+1 {{tensor encoding in tensor<4xf32, {sparse = true}> is not supported}}
func.func @encoding(%a: tensor<4xf32, #enc>) -> tensor<4xf32> {
  %0 = tensor.cast %a : tensor<4xf32, #enc> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An external function (no body) is rejected, even when private.
// expected-error @+1 {{external function 'ext' is not supported: Tessel needs a body}}
func.func private @ext(tensor<4xf32>) -> tensor<4xf32>
func.func @calls_ext(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @ext(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A private function with a body is fine (it is inlined later); element
// types are only checked at public boundaries.
// CHECK-LABEL: func.func private @helper
// CHECK-LABEL: func.func @calls_helper
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @calls_helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Top-level ops other than func.func are rejected. (A top-level op of an
// unsupported dialect, e.g. memref.global, is reported twice: once here and
// once as an unsupported op; see the report.)
// expected-error @+1 {{'arith.constant' is not supported at module level (expected func.func)}}
arith.constant 0 : i32
func.func @uses_nothing(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// Every offending op gets its own diagnostic, in one run.
// expected-error @+1 {{function 'several' argument 1: dynamic shape}}
func.func @several(%a: tensor<4xf32>, %b: tensor<?xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unsupported op 'bufferization.alloc_tensor'}}
  %0 = bufferization.alloc_tensor() : tensor<4xf32>
  // expected-error @+1 {{unsupported op 'tensor.bitcast'}}
  %1 = tensor.bitcast %a : tensor<4xf32> to tensor<4xi32>
  return %0 : tensor<4xf32>
}

// -----
// expected-error @-1 {{no public func.func to compile}}

// A module with no public function has no entry point (reported on the module).
func.func private @only_private(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

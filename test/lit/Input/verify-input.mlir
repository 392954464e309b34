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

// Dynamic shapes are accepted at the boundary and inside (issue 39).
func.func @dynamic_arg(%a: tensor<?x53xf32>) -> tensor<?x53xf32> {
  %0 = tensor.cast %a : tensor<?x53xf32> to tensor<?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<?x53xf32>
  return %1 : tensor<?x53xf32>
}

func.func @uses_nothing(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// Every offending op gets its own diagnostic, in one run.
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

// -----

// cf.assert is a check of the host program: accepted in a function body
// (and in host control flow)...
// CHECK-LABEL: func.func @host_assert
// CHECK: cf.assert %{{.+}}, "too long"
func.func @host_assert(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = arith.constant 512 : index
  %d = tensor.dim %a, %c0 : tensor<?xf32>
  %ok = arith.cmpi sle, %d, %n : index
  cf.assert %ok, "too long"
  return %a : tensor<?xf32>
}

// -----

// ... not inside a computation.
func.func @assert_in_body(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %t = arith.constant true
    // expected-error @+1 {{unsupported op 'cf.assert'}}
    cf.assert %t, "in a body"
    linalg.yield %x : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Module parameters: immutable ml_program globals with a value or
// #ml_program.extern, read in the host program.
// CHECK-LABEL: ml_program.global private @w(
// CHECK-LABEL: func.func @parameter
// CHECK: ml_program.global_load_const @w
ml_program.global private @w(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @v(#ml_program.extern<tensor<2xf32>>) : tensor<2xf32>
func.func @parameter() -> (tensor<2xf32>, tensor<2xf32>) {
  %w = ml_program.global_load_const @w : tensor<2xf32>
  %v = ml_program.global_load_const @v : tensor<2xf32>
  return %w, %v : tensor<2xf32>, tensor<2xf32>
}

// -----

// State: mutable globals (zeros without a value), loaded and stored in the
// host program, in host control flow too.
// CHECK-LABEL: ml_program.global private mutable @state(
// CHECK-LABEL: func.func @state_update
// CHECK: ml_program.global_load @state
// CHECK: ml_program.global_store @state
ml_program.global private mutable @state(dense<0.0> : tensor<4xf32>) : tensor<4xf32>
ml_program.global private mutable @zeros : tensor<4xf32>
func.func @state_update(%x: tensor<4xf32>, %ct: tensor<i1>) -> tensor<4xf32> {
  %c = tensor.extract %ct[] : tensor<i1>
  %s = ml_program.global_load @state : tensor<4xf32>
  scf.if %c {
    ml_program.global_store @zeros = %x : tensor<4xf32>
  }
  ml_program.global_store @state = %x : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// expected-error @+1 {{ml_program.global @d of type 'tensor<?xf32>' is not supported: its type has a dynamic dimension}}
ml_program.global private @d(#ml_program.extern<tensor<?xf32>>) : tensor<?xf32>

// -----

// expected-error @+1 {{ml_program.global @u of type 'tensor<4xui8>' is not supported: element type ui8 in}}
ml_program.global private @u(dense<1> : tensor<4xui8>) : tensor<4xui8>

// -----

// expected-error @+1 {{ml_program.global @n needs a dense or dense_resource value or #ml_program.extern}}
ml_program.global private @n(unit) : tensor<4xf32>

// -----

// expected-error @+1 {{ml_program.global @t: its value's type 'tensor<2xf32>' differs from the global's type 'tensor<4xf32>'}}
ml_program.global private @t(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<4xf32>

// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// The primitive ops print in IREE LinalgExt's format (with tessel.) and
// parse back, on tensors and on memrefs.

// CHECK-LABEL: func.func @scan
// CHECK: tessel.scan dimension(1) inclusive(false) ins(%{{.+}} : tensor<4x5xf32>) outs(%{{.+}}, %{{.+}} : tensor<4x5xf32>, tensor<4xf32>)
// CHECK: tessel.yield %{{.+}} : f32
// CHECK: } -> tensor<4x5xf32>, tensor<4xf32>
func.func @scan(%x: tensor<4x5xf32>, %o: tensor<4x5xf32>, %a: tensor<4xf32>) -> tensor<4x5xf32> {
  %r:2 = tessel.scan dimension(1) inclusive(false) ins(%x : tensor<4x5xf32>) outs(%o, %a : tensor<4x5xf32>, tensor<4xf32>) {
  ^bb0(%l: f32, %v: f32):
    %s = arith.addf %l, %v : f32
    tessel.yield %s : f32
  } -> tensor<4x5xf32>, tensor<4xf32>
  return %r#0 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @scan_memref
// CHECK: tessel.scan dimension(0) inclusive(true) ins(%{{.+}} : memref<8xi32>) outs(%{{.+}}, %{{.+}} : memref<8xi32>, memref<i32>)
// CHECK-NOT: ->
func.func @scan_memref(%x: memref<8xi32>, %o: memref<8xi32>, %a: memref<i32>) {
  tessel.scan dimension(0) inclusive(true) ins(%x : memref<8xi32>) outs(%o, %a : memref<8xi32>, memref<i32>) {
  ^bb0(%l: i32, %v: i32):
    %s = arith.addi %l, %v : i32
    tessel.yield %s : i32
  }
  return
}

// CHECK-LABEL: func.func @gather
// CHECK: tessel.gather dimension_map = [1, 0] ins(%{{.+}}, %{{.+}} : tensor<10x7xf16>, tensor<3x5x2xi64>) outs(%{{.+}} : tensor<3x5xf16>) -> tensor<3x5xf16>
func.func @gather(%t: tensor<10x7xf16>, %i: tensor<3x5x2xi64>, %o: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %g = tessel.gather dimension_map = [1, 0] ins(%t, %i : tensor<10x7xf16>, tensor<3x5x2xi64>) outs(%o : tensor<3x5xf16>) -> tensor<3x5xf16>
  return %g : tensor<3x5xf16>
}

// CHECK-LABEL: func.func @scatter
// CHECK: tessel.scatter dimension_map = [0] unique_indices(false) ins(%{{.+}}, %{{.+}} : tensor<6x4xf32>, tensor<6x1xi32>) outs(%{{.+}} : tensor<9x4xf32>)
func.func @scatter(%u: tensor<6x4xf32>, %i: tensor<6x1xi32>, %o: tensor<9x4xf32>) -> tensor<9x4xf32> {
  %s = tessel.scatter dimension_map = [0] unique_indices(false) ins(%u, %i : tensor<6x4xf32>, tensor<6x1xi32>) outs(%o : tensor<9x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tessel.yield %c : f32
  } -> tensor<9x4xf32>
  return %s : tensor<9x4xf32>
}

// CHECK-LABEL: func.func @sort
// CHECK: tessel.sort dimension(0) outs(%{{.+}}, %{{.+}} : tensor<8xi32>, tensor<8xf32>)
func.func @sort(%k: tensor<8xi32>, %v: tensor<8xf32>) -> tensor<8xf32> {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<8xi32>, tensor<8xf32>) {
  ^bb0(%a: i32, %b: i32, %x: f32, %y: f32):
    %c = arith.cmpi slt, %a, %b : i32
    tessel.yield %c : i1
  } -> tensor<8xi32>, tensor<8xf32>
  return %r#1 : tensor<8xf32>
}

// CHECK-LABEL: func.func @topk
// CHECK: tessel.topk dimension(1) ins(%{{.+}}, %{{.+}} : tensor<2x10xf32>, tensor<2x10xi32>) outs(%{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<2x3xi32>)
func.func @topk(%x: tensor<2x10xf32>, %xi: tensor<2x10xi32>, %v: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %r:2 = tessel.topk dimension(1) ins(%x, %xi : tensor<2x10xf32>, tensor<2x10xi32>) outs(%v, %i : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    tessel.yield %c : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  return %r#1 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @arg_compare
// CHECK: tessel.arg_compare dimension(1) ins(%{{.+}} : tensor<2x10xf32>) outs(%{{.+}}, %{{.+}} : tensor<2xf32>, tensor<2xi32>) index_base(%{{.+}} : index)
func.func @arg_compare(%x: tensor<2x10xf32>, %v: tensor<2xf32>, %i: tensor<2xi32>, %base: index) -> tensor<2xi32> {
  %r:2 = tessel.arg_compare dimension(1) ins(%x : tensor<2x10xf32>) outs(%v, %i : tensor<2xf32>, tensor<2xi32>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    tessel.yield %c : i1
  } -> tensor<2xf32>, tensor<2xi32>
  return %r#1 : tensor<2xi32>
}

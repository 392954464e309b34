// Element types the module format cannot carry are rejected at the public
// boundary, naming the type.
// RUN: rm -f %t.tmod
// RUN: not tessel-compile %s -o %t.tmod 2>&1 | FileCheck %s
// RUN: not test -e %t.tmod

// CHECK-DAG: {{.*}}tessel-compile-element-types.mlir:[[@LINE+3]]:1: error: function 'fp8' argument 0: element type f8E4M3FN in tensor<37xf8E4M3FN> is not supported (expected f64, f32, f16, bf16, i64, i32, i16, i8 or i1)
// CHECK-DAG: {{.*}}tessel-compile-element-types.mlir:[[@LINE+7]]:1: error: function 'cplx' argument 0: element type complex<f32> in tensor<37xcomplex<f32>> is not supported
// CHECK-DAG: {{.*}}tessel-compile-element-types.mlir:[[@LINE+6]]:1: error: function 'cplx' result 0: element type complex<f32> in tensor<37xcomplex<f32>> is not supported
func.func @fp8(%a: tensor<37xf8E4M3FN>) -> tensor<37xf32> {
  %0 = arith.extf %a : tensor<37xf8E4M3FN> to tensor<37xf32>
  return %0 : tensor<37xf32>
}

func.func @cplx(%a: tensor<37xcomplex<f32>>) -> tensor<37xcomplex<f32>> {
  return %a : tensor<37xcomplex<f32>>
}

// CHECK-DAG: {{.*}}tessel-compile-element-types.mlir:[[@LINE+1]]:1: error: function 'index_arg' argument 0: element type index in tensor<4xindex> is not supported
func.func @index_arg(%a: tensor<4xindex>) -> tensor<4xi32> {
  %0 = arith.index_cast %a : tensor<4xindex> to tensor<4xi32>
  return %0 : tensor<4xi32>
}

// RUN: tessel-opt %s --tessel-input-pipeline --split-input-file --verify-diagnostics | FileCheck %s

// An elementwise chain of arith/math on tensors, through a private helper,
// is inlined and fused into one linalg.generic that reads each input once.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>, %[[B:.+]]: tensor<37x53xf32>)
// CHECK-NOT: func.call
// CHECK: %[[E:.+]] = tensor.empty() : tensor<37x53xf32>
// CHECK: %[[G:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[A]], %[[B]] : tensor<37x53xf32>, tensor<37x53xf32>) outs(%[[E]] : tensor<37x53xf32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[EXP:.+]] = math.exp %[[S]] : f32
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[EXP]] : f32
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[EXP]], %[[T]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.subf %[[M]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: return %[[G]]
// CHECK-NOT: linalg.generic
// CHECK-NOT: func.func private @gelu_ish
// CHECK: {{^// [-]{5}$}}
func.func private @gelu_ish(%x: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %t = math.tanh %x : tensor<37x53xf32>
  %m = arith.mulf %x, %t : tensor<37x53xf32>
  return %m : tensor<37x53xf32>
}
func.func @chain(%a: tensor<37x53xf32>, %b: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %0 = arith.addf %a, %b : tensor<37x53xf32>
  %1 = math.exp %0 : tensor<37x53xf32>
  %2 = func.call @gelu_ish(%1) : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %3 = arith.subf %2, %b : tensor<37x53xf32>
  return %3 : tensor<37x53xf32>
}

// -----

// matmul stays named (never fused into its consumers); the bias broadcast,
// add and relu (named ops) become a single fused generic after it.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>, %[[W:.+]]: tensor<53x11xf32>, %[[BIAS:.+]]: tensor<11xf32>)
// CHECK: %[[F:.+]] = linalg.fill
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[W]] : tensor<37x53xf32>, tensor<53x11xf32>) outs(%[[F]] : tensor<37x11xf32>)
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[MM]], %[[BIAS]] : tensor<37x11xf32>, tensor<11xf32>)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: return %[[G]]
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.add
// CHECK-NOT: linalg.broadcast
// CHECK: {{^// [-]{5}$}}
func.func @matmul_bias_relu(%a: tensor<37x53xf32>, %w: tensor<53x11xf32>, %bias: tensor<11xf32>) -> tensor<37x11xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x11xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<37x11xf32>) -> tensor<37x11xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<37x53xf32>, tensor<53x11xf32>) outs(%z : tensor<37x11xf32>) -> tensor<37x11xf32>
  %bb = linalg.broadcast ins(%bias : tensor<11xf32>) outs(%e : tensor<37x11xf32>) dimensions = [0]
  %r = linalg.add ins(%mm, %bb : tensor<37x11xf32>, tensor<37x11xf32>) outs(%e : tensor<37x11xf32>) -> tensor<37x11xf32>
  %m = linalg.max ins(%r, %z : tensor<37x11xf32>, tensor<37x11xf32>) outs(%e : tensor<37x11xf32>) -> tensor<37x11xf32>
  return %m : tensor<37x11xf32>
}

// -----

// softmax is decomposed and its elementwise parts fused with the reductions'
// consumers: no linalg.softmax remains, and two reductions do.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.softmax
// CHECK-COUNT-2: iterator_types = ["parallel", "reduction"]
// CHECK: return
func.func @softmax(%a: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %e = tensor.empty() : tensor<37x53xf32>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  return %0 : tensor<37x53xf32>
}

// -----

// Verification runs first: an unsupported op stops the pipeline with a
// diagnostic naming it.
func.func @rejected(%a: tensor<6xf32>, %s: tensor<2xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{unsupported op 'tensor.reshape'}}
  %0 = tensor.reshape %a(%s) : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// f32 matmuls on the shapes that stress the GPU's shared-memory matmul
// (128x128 blocks, K stages of 8): partial blocks along M and N, K smaller
// than a stage and not a multiple of it, rows of B/C not 16-byte aligned,
// exact multiples of every tile (the unmasked path), and C accumulated
// into an argument instead of a zero fill.
func.func @mm_odd(%a: tensor<129x130xf32>, %b: tensor<130x127xf32>) -> tensor<129x127xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<129x127xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<129x127xf32>) -> tensor<129x127xf32>
  %r = linalg.matmul ins(%a, %b : tensor<129x130xf32>, tensor<130x127xf32>)
                     outs(%acc : tensor<129x127xf32>) -> tensor<129x127xf32>
  return %r : tensor<129x127xf32>
}
func.func @mm_tiny(%a: tensor<1x4xf32>, %b: tensor<4x4xf32>) -> tensor<1x4xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x4xf32>) -> tensor<1x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x4xf32>, tensor<4x4xf32>)
                     outs(%acc : tensor<1x4xf32>) -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}
func.func @mm_k3(%a: tensor<200x3xf32>, %b: tensor<3x260xf32>) -> tensor<200x260xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<200x260xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<200x260xf32>) -> tensor<200x260xf32>
  %r = linalg.matmul ins(%a, %b : tensor<200x3xf32>, tensor<3x260xf32>)
                     outs(%acc : tensor<200x260xf32>) -> tensor<200x260xf32>
  return %r : tensor<200x260xf32>
}
func.func @mm_k_odd(%a: tensor<257x1001xf32>, %b: tensor<1001x260xf32>) -> tensor<257x260xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<257x260xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<257x260xf32>) -> tensor<257x260xf32>
  %r = linalg.matmul ins(%a, %b : tensor<257x1001xf32>, tensor<1001x260xf32>)
                     outs(%acc : tensor<257x260xf32>) -> tensor<257x260xf32>
  return %r : tensor<257x260xf32>
}
func.func @mm_aligned(%a: tensor<256x24xf32>, %b: tensor<24x384xf32>) -> tensor<256x384xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<256x384xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<256x384xf32>) -> tensor<256x384xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x24xf32>, tensor<24x384xf32>)
                     outs(%acc : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %r : tensor<256x384xf32>
}
func.func @mm_one_stage(%a: tensor<128x8xf32>, %b: tensor<8x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<128x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x8xf32>, tensor<8x128xf32>)
                     outs(%acc : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
func.func @mm_acc(%a: tensor<67x45xf32>, %b: tensor<45x131xf32>, %c: tensor<67x131xf32>) -> tensor<67x131xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<67x45xf32>, tensor<45x131xf32>)
                     outs(%c : tensor<67x131xf32>) -> tensor<67x131xf32>
  return %r : tensor<67x131xf32>
}
func.func @mm_acc_aligned(%a: tensor<128x16xf32>, %b: tensor<16x256xf32>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x16xf32>, tensor<16x256xf32>)
                     outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}
// 128 small batch matmuls accumulating into an argument: 128 blocks, enough
// for the GPU's 128x128 blocks, each mostly outside its 33x35 matrix.
func.func @bmm_many_small(%a: tensor<128x33x5xf32>, %b: tensor<128x5x35xf32>, %c: tensor<128x33x35xf32>) -> tensor<128x33x35xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<128x33x5xf32>, tensor<128x5x35xf32>)
                           outs(%c : tensor<128x33x35xf32>) -> tensor<128x33x35xf32>
  return %r : tensor<128x33x35xf32>
}

// RUN: tessel-opt %s --split-input-file --verify-diagnostics

#q = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#s = affine_map<(b, m, n, k1, k2) -> ()>
#o = affine_map<(b, m, n, k1, k2) -> (b, m, n)>

// A missing indexing map is named with the count expected.
func.func @too_few_maps(%q: tensor<4x8x16xf32>, %k: tensor<4x9x16xf32>, %v: tensor<4x9x5xf32>, %scale: f32, %e: tensor<4x8x5xf32>) -> tensor<4x8x5xf32> {
  // expected-error @+1 {{expects 5 indexing maps (query, key, value, scale, output), got 4}}
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #o]}
      ins(%q, %k, %v, %scale : tensor<4x8x16xf32>, tensor<4x9x16xf32>, tensor<4x9x5xf32>, f32)
      outs(%e : tensor<4x8x5xf32>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<4x8x5xf32>
  return %r : tensor<4x8x5xf32>
}

// -----

#q = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#s = affine_map<(b, m, n, k1, k2) -> ()>
#o = affine_map<(b, m, n, k1, k2) -> (b, m, n)>

// Sizes that disagree name the loop and the operand.
func.func @size_mismatch(%q: tensor<4x8x16xf32>, %k: tensor<4x9x15xf32>, %v: tensor<4x9x5xf32>, %scale: f32, %e: tensor<4x8x5xf32>) -> tensor<4x8x5xf32> {
  // expected-error @+1 {{loop d3 has size 16 but the key's dimension 2 is 15}}
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x8x16xf32>, tensor<4x9x15xf32>, tensor<4x9x5xf32>, f32)
      outs(%e : tensor<4x8x5xf32>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<4x8x5xf32>
  return %r : tensor<4x8x5xf32>
}

// -----

#q = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#s = affine_map<(b, m, n, k1, k2) -> ()>
#o = affine_map<(b, m, n, k1, k2) -> (b, m, n)>

// Integer operands are refused.
func.func @int_operands(%q: tensor<4x8x16xi8>, %k: tensor<4x9x16xi8>, %v: tensor<4x9x5xi8>, %scale: f32, %e: tensor<4x8x5xf32>) -> tensor<4x8x5xf32> {
  // expected-error @+1 {{expects f16, bf16 or f32 operands, got 'i8'}}
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x8x16xi8>, tensor<4x9x16xi8>, tensor<4x9x5xi8>, f32)
      outs(%e : tensor<4x8x5xf32>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<4x8x5xf32>
  return %r : tensor<4x8x5xf32>
}

// -----

#q = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#s = affine_map<(b, m, n, k1, k2) -> ()>
#o = affine_map<(b, m, n, k1, k2) -> (b, m, n)>

// A loop whose operands give it no role (V indexed by K1 instead of N).
func.func @no_role(%q: tensor<4x8x16xf32>, %k: tensor<4x9x16xf32>, %v: tensor<4x9x16xf32>, %scale: f32, %e: tensor<4x8x5xf32>) -> tensor<4x8x5xf32> {
  // expected-error @+1 {{every loop must be a batch loop}}
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x8x16xf32>, tensor<4x9x16xf32>, tensor<4x9x16xf32>, f32)
      outs(%e : tensor<4x8x5xf32>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<4x8x5xf32>
  return %r : tensor<4x8x5xf32>
}

// -----

#q = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#s = affine_map<(b, m, n, k1, k2) -> ()>
#o = affine_map<(b, m, n, k1, k2) -> (b, m, n)>

// The region works on f32 scores.
func.func @region_type(%q: tensor<4x8x16xf16>, %k: tensor<4x9x16xf16>, %v: tensor<4x9x5xf16>, %scale: f16, %e: tensor<4x8x5xf16>) -> tensor<4x8x5xf16> {
  // expected-error @+1 {{the region takes one f32 argument (the score)}}
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x8x16xf16>, tensor<4x9x16xf16>, tensor<4x9x5xf16>, f16)
      outs(%e : tensor<4x8x5xf16>) {
    ^bb0(%score: f16):
      tessel.yield %score : f16
  } -> tensor<4x8x5xf16>
  return %r : tensor<4x8x5xf16>
}

// -----

// Five or six inputs only.
func.func @wrong_input_count(%q: tensor<4x8x16xf32>, %e: tensor<4x8x5xf32>) -> tensor<4x8x5xf32> {
  // expected-error @+1 {{expected 4 or 5 inputs (query, key, value, scale[, mask]), got 1}}
  %r = tessel.attention {indexing_maps = []} ins(%q : tensor<4x8x16xf32>) outs(%e : tensor<4x8x5xf32>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<4x8x5xf32>
  return %r : tensor<4x8x5xf32>
}

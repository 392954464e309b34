// TOSA elementwise ops on f32 (upstream TOSA -> linalg lowering): binary ops
// with size-1 broadcasting (TOSA requires equal ranks), unary math, clamp,
// comparisons and select, logical ops on i1, and NaN propagation modes of
// maximum/minimum/clamp. 37x53.
func.func @binary(%a: tensor<37x53xf32>, %b: tensor<1x53xf32>, %c: tensor<37x1xf32>,
                  %d: tensor<37x53xf32>)
    -> (tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
        tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %add = tosa.add %d, %b : (tensor<37x53xf32>, tensor<1x53xf32>) -> tensor<37x53xf32>
  %sub = tosa.sub %c, %d : (tensor<37x1xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
  %mul = tosa.mul %d, %b, %shift : (tensor<37x53xf32>, tensor<1x53xf32>, tensor<1xi8>) -> tensor<37x53xf32>
  %max = tosa.maximum %d, %c : (tensor<37x53xf32>, tensor<37x1xf32>) -> tensor<37x53xf32>
  %min = tosa.minimum %b, %d : (tensor<1x53xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
  %pow = tosa.pow %a, %b : (tensor<37x53xf32>, tensor<1x53xf32>) -> tensor<37x53xf32>
  // Both operands broadcast: 37x1 + 1x53.
  %outer = tosa.add %c, %b : (tensor<37x1xf32>, tensor<1x53xf32>) -> tensor<37x53xf32>
  return %add, %sub, %mul, %max, %min, %pow, %outer
    : tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
      tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>
}

// %p > 0 (log, reciprocal, rsqrt); %x is signed with exact integers and
// halves (ceil/floor edges).
func.func @unary(%p: tensor<37x53xf32>, %x: tensor<37x53xf32>)
    -> (tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
        tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
        tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
        tensor<37x53xf32>, tensor<37x53xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %abs = tosa.abs %x : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %neg = tosa.negate %x, %zp, %zp : (tensor<37x53xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<37x53xf32>
  %rcp = tosa.reciprocal %p : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %rsqrt = tosa.rsqrt %p : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %exp = tosa.exp %x : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %log = tosa.log %p : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %ceil = tosa.ceil %x : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %floor = tosa.floor %x : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %sin = tosa.sin %x : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %cos = tosa.cos %x : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %tanh = tosa.tanh %x : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %sig = tosa.sigmoid %x : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %erf = tosa.erf %x : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %clamp = tosa.clamp %x {min_val = -1.5 : f32, max_val = 2.25 : f32} : (tensor<37x53xf32>) -> tensor<37x53xf32>
  return %abs, %neg, %rcp, %rsqrt, %exp, %log, %ceil, %floor, %sin, %cos, %tanh, %sig, %erf, %clamp
    : tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
      tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
      tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
      tensor<37x53xf32>, tensor<37x53xf32>
}

// Comparisons (some elements equal) and select; %yb broadcasts along rows.
func.func @compare(%x: tensor<37x53xf32>, %y: tensor<37x53xf32>, %yb: tensor<1x53xf32>)
    -> (tensor<37x53xi1>, tensor<37x53xi1>, tensor<37x53xi1>, tensor<37x53xi1>,
        tensor<37x53xf32>, tensor<37x53xf32>) {
  %eq = tosa.equal %x, %y : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %gt = tosa.greater %x, %y : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %ge = tosa.greater_equal %x, %y : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %gtb = tosa.greater %yb, %x : (tensor<1x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %sel = tosa.select %gt, %x, %y : (tensor<37x53xi1>, tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
  // Predicate and the false operand broadcast.
  %selb = tosa.select %gtb, %x, %yb : (tensor<37x53xi1>, tensor<37x53xf32>, tensor<1x53xf32>) -> tensor<37x53xf32>
  return %eq, %gt, %ge, %gtb, %sel, %selb
    : tensor<37x53xi1>, tensor<37x53xi1>, tensor<37x53xi1>, tensor<37x53xi1>,
      tensor<37x53xf32>, tensor<37x53xf32>
}

func.func @logical(%p: tensor<37x53xi1>, %q: tensor<37x53xi1>, %r: tensor<37x1xi1>)
    -> (tensor<37x53xi1>, tensor<37x53xi1>, tensor<37x53xi1>, tensor<37x53xi1>,
        tensor<37x53xi1>) {
  %and = tosa.logical_and %p, %q : (tensor<37x53xi1>, tensor<37x53xi1>) -> tensor<37x53xi1>
  %or = tosa.logical_or %p, %r : (tensor<37x53xi1>, tensor<37x1xi1>) -> tensor<37x53xi1>
  %xor = tosa.logical_xor %r, %q : (tensor<37x1xi1>, tensor<37x53xi1>) -> tensor<37x53xi1>
  %not = tosa.logical_not %p : (tensor<37x53xi1>) -> tensor<37x53xi1>
  %mix = tosa.logical_and %or, %not : (tensor<37x53xi1>, tensor<37x53xi1>) -> tensor<37x53xi1>
  return %and, %or, %xor, %not, %mix
    : tensor<37x53xi1>, tensor<37x53xi1>, tensor<37x53xi1>, tensor<37x53xi1>, tensor<37x53xi1>
}

// NaN handling: PROPAGATE (the default) returns NaN if an operand is NaN;
// IGNORE returns the other operand (NaN only if both are), and clamp with
// IGNORE maps NaN to min_val. Each result r is returned as
// select(equal(r, r), r, 1000): NaN compares unequal to itself, so NaNs come
// back as the finite sentinel 1000.
func.func @nan_modes(%x: tensor<37x53xf32>, %y: tensor<37x53xf32>)
    -> (tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
        tensor<37x53xf32>, tensor<37x53xf32>) {
  %big = "tosa.const"() <{values = dense<1000.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %maxp = tosa.maximum %x, %y : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
  %minp = tosa.minimum %x, %y : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
  %maxi = tosa.maximum %x, %y {nan_mode = #tosa<nan_mode<IGNORE>>} : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
  %mini = tosa.minimum %x, %y {nan_mode = #tosa<nan_mode<IGNORE>>} : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
  %clampp = tosa.clamp %x {min_val = -0.5 : f32, max_val = 0.75 : f32} : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %clampi = tosa.clamp %x {min_val = -0.5 : f32, max_val = 0.75 : f32, nan_mode = #tosa<nan_mode<IGNORE>>} : (tensor<37x53xf32>) -> tensor<37x53xf32>
  %maxp_ok = tosa.equal %maxp, %maxp : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %maxp_r = tosa.select %maxp_ok, %maxp, %big : (tensor<37x53xi1>, tensor<37x53xf32>, tensor<1x1xf32>) -> tensor<37x53xf32>
  %minp_ok = tosa.equal %minp, %minp : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %minp_r = tosa.select %minp_ok, %minp, %big : (tensor<37x53xi1>, tensor<37x53xf32>, tensor<1x1xf32>) -> tensor<37x53xf32>
  %maxi_ok = tosa.equal %maxi, %maxi : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %maxi_r = tosa.select %maxi_ok, %maxi, %big : (tensor<37x53xi1>, tensor<37x53xf32>, tensor<1x1xf32>) -> tensor<37x53xf32>
  %mini_ok = tosa.equal %mini, %mini : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %mini_r = tosa.select %mini_ok, %mini, %big : (tensor<37x53xi1>, tensor<37x53xf32>, tensor<1x1xf32>) -> tensor<37x53xf32>
  %clampp_ok = tosa.equal %clampp, %clampp : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %clampp_r = tosa.select %clampp_ok, %clampp, %big : (tensor<37x53xi1>, tensor<37x53xf32>, tensor<1x1xf32>) -> tensor<37x53xf32>
  %clampi_ok = tosa.equal %clampi, %clampi : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xi1>
  %clampi_r = tosa.select %clampi_ok, %clampi, %big : (tensor<37x53xi1>, tensor<37x53xf32>, tensor<1x1xf32>) -> tensor<37x53xf32>
  return %maxp_r, %minp_r, %maxi_r, %mini_r, %clampp_r, %clampi_r
    : tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
      tensor<37x53xf32>, tensor<37x53xf32>
}

// f16 and bf16 elementwise ops.
func.func @half_types(%h: tensor<37x53xf16>, %hb: tensor<1x53xf16>, %b: tensor<37x53xbf16>,
                      %bb: tensor<37x1xbf16>)
    -> (tensor<37x53xf16>, tensor<37x53xf16>, tensor<37x53xf16>, tensor<37x53xf16>,
        tensor<37x53xbf16>, tensor<37x53xbf16>, tensor<37x53xbf16>, tensor<37x53xbf16>) {
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %hadd = tosa.add %h, %hb : (tensor<37x53xf16>, tensor<1x53xf16>) -> tensor<37x53xf16>
  %hmul = tosa.mul %h, %hb, %s0 : (tensor<37x53xf16>, tensor<1x53xf16>, tensor<1xi8>) -> tensor<37x53xf16>
  %hexp = tosa.exp %h : (tensor<37x53xf16>) -> tensor<37x53xf16>
  %hsig = tosa.sigmoid %h : (tensor<37x53xf16>) -> tensor<37x53xf16>
  %badd = tosa.add %b, %bb : (tensor<37x53xbf16>, tensor<37x1xbf16>) -> tensor<37x53xbf16>
  %bmul = tosa.mul %b, %bb, %s0 : (tensor<37x53xbf16>, tensor<37x1xbf16>, tensor<1xi8>) -> tensor<37x53xbf16>
  %btanh = tosa.tanh %b : (tensor<37x53xbf16>) -> tensor<37x53xbf16>
  %bclamp = tosa.clamp %b {min_val = -1.0 : bf16, max_val = 1.5 : bf16} : (tensor<37x53xbf16>) -> tensor<37x53xbf16>
  return %hadd, %hmul, %hexp, %hsig, %badd, %bmul, %btanh, %bclamp
    : tensor<37x53xf16>, tensor<37x53xf16>, tensor<37x53xf16>, tensor<37x53xf16>,
      tensor<37x53xbf16>, tensor<37x53xbf16>, tensor<37x53xbf16>, tensor<37x53xbf16>
}

// TOSA reductions along each axis of a rank-3 tensor: reduce_sum/max/min/
// product on f32, reduce_sum/max/min on i32 and reduce_max/min on i8,
// reduce_all/any on i1 (the reduced axis keeps size 1), argmax on f32 and
// i8 (the axis is removed; first index on ties), and the NaN modes of
// reduce_max/min and argmax. 13x27x19.

// %p is in [0.8, 1.25] so that products of 27 values stay moderate.
func.func @reduce_f32(%x: tensor<13x27x19xf32>, %p: tensor<13x27x19xf32>)
    -> (tensor<1x27x19xf32>, tensor<13x1x19xf32>, tensor<13x27x1xf32>, tensor<1x27x19xf32>, tensor<13x1x19xf32>, tensor<13x27x1xf32>, tensor<1x27x19xf32>, tensor<13x1x19xf32>, tensor<13x27x1xf32>, tensor<1x27x19xf32>, tensor<13x1x19xf32>, tensor<13x27x1xf32>) {
  %r0 = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<13x27x19xf32>) -> tensor<1x27x19xf32>
  %r1 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<13x27x19xf32>) -> tensor<13x1x19xf32>
  %r2 = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<13x27x19xf32>) -> tensor<13x27x1xf32>
  %r3 = tosa.reduce_max %x {axis = 0 : i32} : (tensor<13x27x19xf32>) -> tensor<1x27x19xf32>
  %r4 = tosa.reduce_max %x {axis = 1 : i32} : (tensor<13x27x19xf32>) -> tensor<13x1x19xf32>
  %r5 = tosa.reduce_max %x {axis = 2 : i32} : (tensor<13x27x19xf32>) -> tensor<13x27x1xf32>
  %r6 = tosa.reduce_min %x {axis = 0 : i32} : (tensor<13x27x19xf32>) -> tensor<1x27x19xf32>
  %r7 = tosa.reduce_min %x {axis = 1 : i32} : (tensor<13x27x19xf32>) -> tensor<13x1x19xf32>
  %r8 = tosa.reduce_min %x {axis = 2 : i32} : (tensor<13x27x19xf32>) -> tensor<13x27x1xf32>
  %r9 = tosa.reduce_product %p {axis = 0 : i32} : (tensor<13x27x19xf32>) -> tensor<1x27x19xf32>
  %r10 = tosa.reduce_product %p {axis = 1 : i32} : (tensor<13x27x19xf32>) -> tensor<13x1x19xf32>
  %r11 = tosa.reduce_product %p {axis = 2 : i32} : (tensor<13x27x19xf32>) -> tensor<13x27x1xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11
    : tensor<1x27x19xf32>, tensor<13x1x19xf32>, tensor<13x27x1xf32>, tensor<1x27x19xf32>, tensor<13x1x19xf32>, tensor<13x27x1xf32>, tensor<1x27x19xf32>, tensor<13x1x19xf32>, tensor<13x27x1xf32>, tensor<1x27x19xf32>, tensor<13x1x19xf32>, tensor<13x27x1xf32>
}

func.func @reduce_int(%a: tensor<13x27x19xi32>, %b: tensor<13x27x19xi8>)
    -> (tensor<1x27x19xi32>, tensor<13x1x19xi32>, tensor<13x27x1xi32>, tensor<1x27x19xi32>, tensor<13x1x19xi32>, tensor<13x27x1xi32>, tensor<1x27x19xi32>, tensor<13x1x19xi32>, tensor<13x27x1xi32>, tensor<1x27x19xi8>, tensor<13x1x19xi8>, tensor<13x27x1xi8>, tensor<1x27x19xi8>, tensor<13x1x19xi8>, tensor<13x27x1xi8>) {
  %r0 = tosa.reduce_sum %a {axis = 0 : i32} : (tensor<13x27x19xi32>) -> tensor<1x27x19xi32>
  %r1 = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<13x27x19xi32>) -> tensor<13x1x19xi32>
  %r2 = tosa.reduce_sum %a {axis = 2 : i32} : (tensor<13x27x19xi32>) -> tensor<13x27x1xi32>
  %r3 = tosa.reduce_max %a {axis = 0 : i32} : (tensor<13x27x19xi32>) -> tensor<1x27x19xi32>
  %r4 = tosa.reduce_max %a {axis = 1 : i32} : (tensor<13x27x19xi32>) -> tensor<13x1x19xi32>
  %r5 = tosa.reduce_max %a {axis = 2 : i32} : (tensor<13x27x19xi32>) -> tensor<13x27x1xi32>
  %r6 = tosa.reduce_min %a {axis = 0 : i32} : (tensor<13x27x19xi32>) -> tensor<1x27x19xi32>
  %r7 = tosa.reduce_min %a {axis = 1 : i32} : (tensor<13x27x19xi32>) -> tensor<13x1x19xi32>
  %r8 = tosa.reduce_min %a {axis = 2 : i32} : (tensor<13x27x19xi32>) -> tensor<13x27x1xi32>
  %r9 = tosa.reduce_max %b {axis = 0 : i32} : (tensor<13x27x19xi8>) -> tensor<1x27x19xi8>
  %r10 = tosa.reduce_max %b {axis = 1 : i32} : (tensor<13x27x19xi8>) -> tensor<13x1x19xi8>
  %r11 = tosa.reduce_max %b {axis = 2 : i32} : (tensor<13x27x19xi8>) -> tensor<13x27x1xi8>
  %r12 = tosa.reduce_min %b {axis = 0 : i32} : (tensor<13x27x19xi8>) -> tensor<1x27x19xi8>
  %r13 = tosa.reduce_min %b {axis = 1 : i32} : (tensor<13x27x19xi8>) -> tensor<13x1x19xi8>
  %r14 = tosa.reduce_min %b {axis = 2 : i32} : (tensor<13x27x19xi8>) -> tensor<13x27x1xi8>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14
    : tensor<1x27x19xi32>, tensor<13x1x19xi32>, tensor<13x27x1xi32>, tensor<1x27x19xi32>, tensor<13x1x19xi32>, tensor<13x27x1xi32>, tensor<1x27x19xi32>, tensor<13x1x19xi32>, tensor<13x27x1xi32>, tensor<1x27x19xi8>, tensor<13x1x19xi8>, tensor<13x27x1xi8>, tensor<1x27x19xi8>, tensor<13x1x19xi8>, tensor<13x27x1xi8>
}

// %p is mostly true (all-true rows exist), %q mostly false.
func.func @reduce_bool(%p: tensor<13x27x19xi1>, %q: tensor<13x27x19xi1>)
    -> (tensor<1x27x19xi1>, tensor<13x1x19xi1>, tensor<13x27x1xi1>, tensor<1x27x19xi1>, tensor<13x1x19xi1>, tensor<13x27x1xi1>) {
  %r0 = tosa.reduce_all %p {axis = 0 : i32} : (tensor<13x27x19xi1>) -> tensor<1x27x19xi1>
  %r1 = tosa.reduce_all %p {axis = 1 : i32} : (tensor<13x27x19xi1>) -> tensor<13x1x19xi1>
  %r2 = tosa.reduce_all %p {axis = 2 : i32} : (tensor<13x27x19xi1>) -> tensor<13x27x1xi1>
  %r3 = tosa.reduce_any %q {axis = 0 : i32} : (tensor<13x27x19xi1>) -> tensor<1x27x19xi1>
  %r4 = tosa.reduce_any %q {axis = 1 : i32} : (tensor<13x27x19xi1>) -> tensor<13x1x19xi1>
  %r5 = tosa.reduce_any %q {axis = 2 : i32} : (tensor<13x27x19xi1>) -> tensor<13x27x1xi1>
  return %r0, %r1, %r2, %r3, %r4, %r5
    : tensor<1x27x19xi1>, tensor<13x1x19xi1>, tensor<13x27x1xi1>, tensor<1x27x19xi1>, tensor<13x1x19xi1>, tensor<13x27x1xi1>
}

// Small-integer values: many ties (the first maximum wins).
func.func @argmax(%x: tensor<13x27x19xf32>, %b: tensor<13x27x19xi8>)
    -> (tensor<27x19xi32>, tensor<13x19xi32>, tensor<13x27xi32>, tensor<27x19xi32>, tensor<13x19xi32>, tensor<13x27xi32>) {
  %r0 = tosa.argmax %x {axis = 0 : i32} : (tensor<13x27x19xf32>) -> tensor<27x19xi32>
  %r1 = tosa.argmax %x {axis = 1 : i32} : (tensor<13x27x19xf32>) -> tensor<13x19xi32>
  %r2 = tosa.argmax %x {axis = 2 : i32} : (tensor<13x27x19xf32>) -> tensor<13x27xi32>
  %r3 = tosa.argmax %b {axis = 0 : i32} : (tensor<13x27x19xi8>) -> tensor<27x19xi32>
  %r4 = tosa.argmax %b {axis = 1 : i32} : (tensor<13x27x19xi8>) -> tensor<13x19xi32>
  %r5 = tosa.argmax %b {axis = 2 : i32} : (tensor<13x27x19xi8>) -> tensor<13x27xi32>
  return %r0, %r1, %r2, %r3, %r4, %r5
    : tensor<27x19xi32>, tensor<13x19xi32>, tensor<13x27xi32>, tensor<27x19xi32>, tensor<13x19xi32>, tensor<13x27xi32>
}

// NaN modes on 9x11 rows with NaNs (some rows all NaN, some NaN-free).
// PROPAGATE: reduce_max/min give NaN if the row has a NaN, argmax the index
// of the first NaN. IGNORE: NaNs are skipped (NaN only for an all-NaN row;
// argmax of an all-NaN row is 0). NaN results come back as the sentinel 1000
// (select(equal(r, r), r, 1000)).
func.func @nan_modes(%x: tensor<9x11xf32>)
    -> (tensor<9x1xf32>, tensor<9x1xf32>, tensor<9x1xf32>, tensor<9x1xf32>,
        tensor<9xi32>, tensor<9xi32>, tensor<11xi32>) {
  %big = "tosa.const"() <{values = dense<1000.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %maxp = tosa.reduce_max %x {axis = 1 : i32} : (tensor<9x11xf32>) -> tensor<9x1xf32>
  %minp = tosa.reduce_min %x {axis = 1 : i32} : (tensor<9x11xf32>) -> tensor<9x1xf32>
  %maxi = tosa.reduce_max %x {axis = 1 : i32, nan_mode = #tosa<nan_mode<IGNORE>>} : (tensor<9x11xf32>) -> tensor<9x1xf32>
  %mini = tosa.reduce_min %x {axis = 1 : i32, nan_mode = #tosa<nan_mode<IGNORE>>} : (tensor<9x11xf32>) -> tensor<9x1xf32>
  %amp = tosa.argmax %x {axis = 1 : i32} : (tensor<9x11xf32>) -> tensor<9xi32>
  %ami = tosa.argmax %x {axis = 1 : i32, nan_mode = #tosa<nan_mode<IGNORE>>} : (tensor<9x11xf32>) -> tensor<9xi32>
  %amc = tosa.argmax %x {axis = 0 : i32} : (tensor<9x11xf32>) -> tensor<11xi32>
  %e0 = tosa.equal %maxp, %maxp : (tensor<9x1xf32>, tensor<9x1xf32>) -> tensor<9x1xi1>
  %s0 = tosa.select %e0, %maxp, %big : (tensor<9x1xi1>, tensor<9x1xf32>, tensor<1x1xf32>) -> tensor<9x1xf32>
  %e1 = tosa.equal %minp, %minp : (tensor<9x1xf32>, tensor<9x1xf32>) -> tensor<9x1xi1>
  %s1 = tosa.select %e1, %minp, %big : (tensor<9x1xi1>, tensor<9x1xf32>, tensor<1x1xf32>) -> tensor<9x1xf32>
  %e2 = tosa.equal %maxi, %maxi : (tensor<9x1xf32>, tensor<9x1xf32>) -> tensor<9x1xi1>
  %s2 = tosa.select %e2, %maxi, %big : (tensor<9x1xi1>, tensor<9x1xf32>, tensor<1x1xf32>) -> tensor<9x1xf32>
  %e3 = tosa.equal %mini, %mini : (tensor<9x1xf32>, tensor<9x1xf32>) -> tensor<9x1xi1>
  %s3 = tosa.select %e3, %mini, %big : (tensor<9x1xi1>, tensor<9x1xf32>, tensor<1x1xf32>) -> tensor<9x1xf32>
  return %s0, %s1, %s2, %s3, %amp, %ami, %amc
    : tensor<9x1xf32>, tensor<9x1xf32>, tensor<9x1xf32>, tensor<9x1xf32>,
      tensor<9xi32>, tensor<9xi32>, tensor<11xi32>
}

// Radix sorts (one dimension, keys ordered by one < or >): unsigned,
// signed, float and 64-bit keys, ascending and descending, one pass (i8)
// to eight (i64), with positions carried as values so that stability is
// checked exactly. Then sorts that stay merge sorts: a comparator that is
// not one comparison of the keys, and a long row sort.
func.func @sort_u32(%k: tensor<70001xi32>, %v: tensor<70001xi32>) -> (tensor<70001xi32>, tensor<70001xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<70001xi32>, tensor<70001xi32>) {
  ^bb0(%a: i32, %b: i32, %x: i32, %y: i32):
    %c = arith.cmpi ult, %a, %b : i32
    tessel.yield %c : i1
  } -> tensor<70001xi32>, tensor<70001xi32>
  return %r#0, %r#1 : tensor<70001xi32>, tensor<70001xi32>
}

func.func @sort_f32_desc(%k: tensor<3001xf32>, %v: tensor<3001xi32>) -> (tensor<3001xf32>, tensor<3001xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<3001xf32>, tensor<3001xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %c = arith.cmpf ogt, %a, %b : f32
    tessel.yield %c : i1
  } -> tensor<3001xf32>, tensor<3001xi32>
  return %r#0, %r#1 : tensor<3001xf32>, tensor<3001xi32>
}

func.func @sort_i64(%k: tensor<2049xi64>, %v: tensor<2049xi32>) -> (tensor<2049xi64>, tensor<2049xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<2049xi64>, tensor<2049xi32>) {
  ^bb0(%a: i64, %b: i64, %x: i32, %y: i32):
    %c = arith.cmpi slt, %a, %b : i64
    tessel.yield %c : i1
  } -> tensor<2049xi64>, tensor<2049xi32>
  return %r#0, %r#1 : tensor<2049xi64>, tensor<2049xi32>
}

func.func @sort_i8_desc(%k: tensor<1001xi8>, %v: tensor<1001xi32>) -> (tensor<1001xi8>, tensor<1001xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<1001xi8>, tensor<1001xi32>) {
  ^bb0(%a: i8, %b: i8, %x: i32, %y: i32):
    %c = arith.cmpi sgt, %a, %b : i8
    tessel.yield %c : i1
  } -> tensor<1001xi8>, tensor<1001xi32>
  return %r#0, %r#1 : tensor<1001xi8>, tensor<1001xi32>
}

func.func @sort_f16(%k: tensor<4099xf16>, %v: tensor<4099xi32>) -> (tensor<4099xf16>, tensor<4099xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<4099xf16>, tensor<4099xi32>) {
  ^bb0(%a: f16, %b: f16, %x: i32, %y: i32):
    %c = arith.cmpf olt, %a, %b : f16
    tessel.yield %c : i1
  } -> tensor<4099xf16>, tensor<4099xi32>
  return %r#0, %r#1 : tensor<4099xf16>, tensor<4099xi32>
}

// `b > a` is `a < b`: ascending.
func.func @sort_swapped(%k: tensor<1500xi32>) -> tensor<1500xi32> {
  %r = tessel.sort dimension(0) outs(%k : tensor<1500xi32>) {
  ^bb0(%a: i32, %b: i32):
    %c = arith.cmpi sgt, %b, %a : i32
    tessel.yield %c : i1
  } -> tensor<1500xi32>
  return %r : tensor<1500xi32>
}

// By magnitude: not a radix sort, merge passes.
func.func @sort_abs_merge(%k: tensor<3001xf32>, %v: tensor<3001xi32>) -> (tensor<3001xf32>, tensor<3001xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<3001xf32>, tensor<3001xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %aa = math.absf %a : f32
    %bb = math.absf %b : f32
    %c = arith.cmpf olt, %aa, %bb : f32
    tessel.yield %c : i1
  } -> tensor<3001xf32>, tensor<3001xi32>
  return %r#0, %r#1 : tensor<3001xf32>, tensor<3001xi32>
}

// Rows of 2500: merge passes (radix sorts are one dimension).
func.func @sort_rows_long(%x: tensor<3x2500xf32>) -> tensor<3x2500xf32> {
  %r = tessel.sort dimension(1) outs(%x : tensor<3x2500xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf olt, %a, %b : f32
    tessel.yield %c : i1
  } -> tensor<3x2500xf32>
  return %r : tensor<3x2500xf32>
}

// Operands too wide to reorder a tile in shared memory on the GPU (24 KiB
// a tile): ranked elements are stored from their lanes.
func.func @sort_i64_wide(%k: tensor<3001xi64>, %v: tensor<3001xi64>, %w: tensor<3001xf64>) -> (tensor<3001xi64>, tensor<3001xi64>, tensor<3001xf64>) {
  %r:3 = tessel.sort dimension(0) outs(%k, %v, %w : tensor<3001xi64>, tensor<3001xi64>, tensor<3001xf64>) {
  ^bb0(%a: i64, %b: i64, %x: i64, %y: i64, %s: f64, %t: f64):
    %c = arith.cmpi ugt, %a, %b : i64
    tessel.yield %c : i1
  } -> tensor<3001xi64>, tensor<3001xi64>, tensor<3001xf64>
  return %r#0, %r#1, %r#2 : tensor<3001xi64>, tensor<3001xi64>, tensor<3001xf64>
}

// TOSA data movement: reshape (tosa.const_shape), transpose, slice, pad
// (padding and pad value), concat, reverse, tile, gather, identity and
// const, on f32, i8 and i1.
func.func @shape_ops(%x: tensor<5x6x7xf32>)
    -> (tensor<30x7xf32>, tensor<7x5x6xf32>, tensor<6x7x5xf32>, tensor<3x4x5xf32>,
        tensor<8x9x10xf32>, tensor<5x6x7xf32>, tensor<5x6x7xf32>, tensor<10x6x21xf32>,
        tensor<5x6x7xf32>) {
  %s = tosa.const_shape {values = dense<[30, 7]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %reshape = tosa.reshape %x, %s : (tensor<5x6x7xf32>, !tosa.shape<2>) -> tensor<30x7xf32>
  %t201 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<5x6x7xf32>) -> tensor<7x5x6xf32>
  %t120 = tosa.transpose %x {perms = array<i32: 1, 2, 0>} : (tensor<5x6x7xf32>) -> tensor<6x7x5xf32>
  %start = tosa.const_shape {values = dense<[1, 2, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[3, 4, 5]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %slice = tosa.slice %x, %start, %size : (tensor<5x6x7xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<3x4x5xf32>
  %padding = tosa.const_shape {values = dense<[1, 2, 0, 3, 2, 1]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %pv = "tosa.const"() <{values = dense<-2.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %pad = tosa.pad %x, %padding, %pv : (tensor<5x6x7xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<8x9x10xf32>
  %rev0 = tosa.reverse %x {axis = 0 : i32} : (tensor<5x6x7xf32>) -> tensor<5x6x7xf32>
  %rev2 = tosa.reverse %x {axis = 2 : i32} : (tensor<5x6x7xf32>) -> tensor<5x6x7xf32>
  %mult = tosa.const_shape {values = dense<[2, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %tile = tosa.tile %x, %mult : (tensor<5x6x7xf32>, !tosa.shape<3>) -> tensor<10x6x21xf32>
  %id = tosa.identity %x : (tensor<5x6x7xf32>) -> tensor<5x6x7xf32>
  return %reshape, %t201, %t120, %slice, %pad, %rev0, %rev2, %tile, %id
    : tensor<30x7xf32>, tensor<7x5x6xf32>, tensor<6x7x5xf32>, tensor<3x4x5xf32>,
      tensor<8x9x10xf32>, tensor<5x6x7xf32>, tensor<5x6x7xf32>, tensor<10x6x21xf32>,
      tensor<5x6x7xf32>
}

// concat along each axis (three operands on axis 1), and a constant operand.
func.func @concat_const(%a: tensor<3x5xf32>, %b: tensor<3x2xf32>, %c: tensor<4x5xf32>)
    -> (tensor<3x12xf32>, tensor<7x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>) {
  %ab = tosa.concat %a, %b, %a {axis = 1 : i32} : (tensor<3x5xf32>, tensor<3x2xf32>, tensor<3x5xf32>) -> tensor<3x12xf32>
  %ac = tosa.concat %a, %c {axis = 0 : i32} : (tensor<3x5xf32>, tensor<4x5xf32>) -> tensor<7x5xf32>
  %k = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [-1.0, -2.0, -3.0, -4.0, -5.0], [0.5, 0.25, 0.125, 0.0625, 0.03125]]> : tensor<3x5xf32>}> : () -> tensor<3x5xf32>
  %sum = tosa.add %a, %k : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %ab, %ac, %sum, %k : tensor<3x12xf32>, tensor<7x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
}

// gather: values (N, K, C), indices (N, W) -> (N, W, C); indices repeat and
// cover 0 and K-1.
func.func @gather(%v: tensor<3x11x5xf32>, %i: tensor<3x7xi32>, %w: tensor<2x13x9xi8>,
                  %j: tensor<2x4xi32>) -> (tensor<3x7x5xf32>, tensor<2x4x9xi8>) {
  %g = tosa.gather %v, %i : (tensor<3x11x5xf32>, tensor<3x7xi32>) -> tensor<3x7x5xf32>
  %h = tosa.gather %w, %j : (tensor<2x13x9xi8>, tensor<2x4xi32>) -> tensor<2x4x9xi8>
  return %g, %h : tensor<3x7x5xf32>, tensor<2x4x9xi8>
}

// The same movements on i8 and i1, and reshapes to and from rank 0 / rank 1.
func.func @other_types(%x: tensor<5x6x7xi8>, %p: tensor<5x6x7xi1>, %s: tensor<1x1xi8>)
    -> (tensor<6x5x7xi8>, tensor<7x6x7xi8>, tensor<5x6x14xi8>, tensor<5x3x7xi8>,
        tensor<6x5x7xi1>, tensor<5x8x7xi1>, tensor<5x6x7xi1>, tensor<210xi1>, tensor<i8>,
        tensor<1x1x1xi8>) {
  %t = tosa.transpose %x {perms = array<i32: 1, 0, 2>} : (tensor<5x6x7xi8>) -> tensor<6x5x7xi8>
  %padding = tosa.const_shape {values = dense<[2, 0, 0, 0, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %pv = "tosa.const"() <{values = dense<-100> : tensor<1xi8>}> : () -> tensor<1xi8>
  %pad = tosa.pad %x, %padding, %pv : (tensor<5x6x7xi8>, !tosa.shape<6>, tensor<1xi8>) -> tensor<7x6x7xi8>
  %cat = tosa.concat %x, %x {axis = 2 : i32} : (tensor<5x6x7xi8>, tensor<5x6x7xi8>) -> tensor<5x6x14xi8>
  %start = tosa.const_shape {values = dense<[0, 3, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[5, 3, 7]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %slice = tosa.slice %x, %start, %size : (tensor<5x6x7xi8>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<5x3x7xi8>
  %pt = tosa.transpose %p {perms = array<i32: 1, 0, 2>} : (tensor<5x6x7xi1>) -> tensor<6x5x7xi1>
  %ppadding = tosa.const_shape {values = dense<[0, 0, 1, 1, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %ppv = "tosa.const"() <{values = dense<true> : tensor<1xi1>}> : () -> tensor<1xi1>
  %ppad = tosa.pad %p, %ppadding, %ppv : (tensor<5x6x7xi1>, !tosa.shape<6>, tensor<1xi1>) -> tensor<5x8x7xi1>
  %prev = tosa.reverse %p {axis = 1 : i32} : (tensor<5x6x7xi1>) -> tensor<5x6x7xi1>
  %flat = tosa.const_shape {values = dense<[210]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %pflat = tosa.reshape %p, %flat : (tensor<5x6x7xi1>, !tosa.shape<1>) -> tensor<210xi1>
  %scalar = tosa.const_shape {values = dense<[]> : tensor<0xindex>} : () -> !tosa.shape<0>
  %s0 = tosa.reshape %s, %scalar : (tensor<1x1xi8>, !tosa.shape<0>) -> tensor<i8>
  %three = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3 = tosa.reshape %s0, %three : (tensor<i8>, !tosa.shape<3>) -> tensor<1x1x1xi8>
  return %t, %pad, %cat, %slice, %pt, %ppad, %prev, %pflat, %s0, %s3
    : tensor<6x5x7xi8>, tensor<7x6x7xi8>, tensor<5x6x14xi8>, tensor<5x3x7xi8>,
      tensor<6x5x7xi1>, tensor<5x8x7xi1>, tensor<5x6x7xi1>, tensor<210xi1>, tensor<i8>,
      tensor<1x1x1xi8>
}

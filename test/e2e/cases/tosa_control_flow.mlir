// TOSA control flow: IREE's e2e cases tests/e2e/tosa_ops/if.mlir (2) and
// while.mlir (4), with the util.unfoldable_constant inputs as arguments
// (so that nothing folds) and the checks as results. Upstream's
// tosa-to-scf lowers them to scf.if / scf.while, whose conditions the host
// reads from the device.

// if_true_test / if_false_test: cond ? x + 10 : x.
func.func @cond_if_then_adds(%cond: tensor<i1>, %x: tensor<i32>) -> tensor<i32> {
  %r = tosa.cond_if %cond : tensor<i1> -> tensor<i32> {
    %ten = "tosa.const"() <{values = dense<10> : tensor<i32>}> : () -> tensor<i32>
    %s = tosa.add %x, %ten : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %s : tensor<i32>
  } else {
    tosa.yield %x : tensor<i32>
  }
  return %r : tensor<i32>
}

// The other arm adds: cond ? x : x + 10.
func.func @cond_if_else_adds(%cond: tensor<i1>, %x: tensor<i32>) -> tensor<i32> {
  %r = tosa.cond_if %cond : tensor<i1> -> tensor<i32> {
    tosa.yield %x : tensor<i32>
  } else {
    %ten = "tosa.const"() <{values = dense<10> : tensor<i32>}> : () -> tensor<i32>
    %s = tosa.add %x, %ten : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %s : tensor<i32>
  }
  return %r : tensor<i32>
}

// while_test_iter*: while (i <= 3) i += n.
func.func @while_le3(%i0: tensor<i32>, %n: tensor<i32>) -> tensor<i32> {
  %r = tosa.while_loop (%i = %i0) : (tensor<i32>) -> tensor<i32> {
    %three = "tosa.const"() <{values = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %c = tosa.greater_equal %three, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %s = tosa.add %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %s : tensor<i32>
  }
  return %r : tensor<i32>
}

// A while loop carrying a tensor of odd size beside its counter: halve the
// vector until the counter reaches the limit (both arms of a cond_if inside).
func.func @while_with_tensor(%k0: tensor<i32>, %limit: tensor<i32>, %v0: tensor<3x7xf32>)
    -> (tensor<i32>, tensor<3x7xf32>) {
  %r:2 = tosa.while_loop (%k = %k0, %v = %v0) : (tensor<i32>, tensor<3x7xf32>) -> (tensor<i32>, tensor<3x7xf32>) {
    %c = tosa.greater %limit, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%k: tensor<i32>, %v: tensor<3x7xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %k2 = tosa.add %k, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v2 = tosa.mul %v, %half, %shift : (tensor<3x7xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<3x7xf32>
    tosa.yield %k2, %v2 : tensor<i32>, tensor<3x7xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<3x7xf32>
}

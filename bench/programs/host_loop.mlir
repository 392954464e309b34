// Host-loop overhead (issue 39): a loop of small dispatches whose trip
// count is read from the device once (for_n), and one whose condition is
// computed on the device and read every iteration (while_n: one wait per
// iteration). Per-iteration host cost = (time(n) - time(1)) / (n - 1), with
// tessel-run --benchmark (Function::call) on n = 1 and n = 1000.
#id = affine_map<(d0) -> (d0)>

func.func @for_n(%x0: tensor<1024xf32>, %n: tensor<i32>) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = tensor.extract %n[] : tensor<i32>
  %count = arith.index_cast %ni : i32 to index
  %r = scf.for %i = %c0 to %count step %c1 iter_args(%x = %x0) -> tensor<1024xf32> {
    %e = tensor.empty() : tensor<1024xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
    ^bb0(%v: f32, %o: f32):
      %a = arith.constant 0.999 : f32
      %b = arith.constant 0.001 : f32
      %m = arith.mulf %v, %a : f32
      %s = arith.addf %m, %b : f32
      linalg.yield %s : f32
    } -> tensor<1024xf32>
    scf.yield %y : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

func.func @while_n(%x0: tensor<1024xf32>, %k0: tensor<i32>, %limit: tensor<i32>) -> tensor<1024xf32> {
  %r:2 = scf.while (%k = %k0, %x = %x0) : (tensor<i32>, tensor<1024xf32>) -> (tensor<i32>, tensor<1024xf32>) {
    %lt = arith.cmpi slt, %k, %limit : tensor<i32>
    %c = tensor.extract %lt[] : tensor<i1>
    scf.condition(%c) %k, %x : tensor<i32>, tensor<1024xf32>
  } do {
  ^bb0(%k: tensor<i32>, %x: tensor<1024xf32>):
    %one = arith.constant dense<1> : tensor<i32>
    %k2 = arith.addi %k, %one : tensor<i32>
    %a = arith.constant dense<0.999> : tensor<1024xf32>
    %y = arith.mulf %x, %a : tensor<1024xf32>
    scf.yield %k2, %y : tensor<i32>, tensor<1024xf32>
  }
  return %r#1 : tensor<1024xf32>
}

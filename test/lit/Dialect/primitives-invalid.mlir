// RUN: tessel-opt %s --split-input-file --verify-diagnostics

func.func @scan_bad_dimension(%x: tensor<4x5xf32>, %o: tensor<4x5xf32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{dimension 2 is out of range for input of rank 2}}
  %r:2 = tessel.scan dimension(2) inclusive(true) ins(%x : tensor<4x5xf32>) outs(%o, %a : tensor<4x5xf32>, tensor<4xf32>) {
  ^bb0(%l: f32, %v: f32):
    %s = arith.addf %l, %v : f32
    tessel.yield %s : f32
  } -> tensor<4x5xf32>, tensor<4xf32>
  return
}

// -----

func.func @scan_bad_accumulator(%x: tensor<4x5xf32>, %o: tensor<4x5xf32>, %a: tensor<5xf32>) {
  // expected-error @+1 {{accumulator 'tensor<5xf32>' must be the input's shape without dimension 1 ([4]) of 'f32'}}
  %r:2 = tessel.scan dimension(1) inclusive(true) ins(%x : tensor<4x5xf32>) outs(%o, %a : tensor<4x5xf32>, tensor<5xf32>) {
  ^bb0(%l: f32, %v: f32):
    %s = arith.addf %l, %v : f32
    tessel.yield %s : f32
  } -> tensor<4x5xf32>, tensor<5xf32>
  return
}

// -----

func.func @scan_not_associative(%x: tensor<8xi32>, %o: tensor<8xi32>, %a: tensor<i32>) {
  // expected-error @+1 {{combiner 'arith.subi' is not associative}}
  %r:2 = tessel.scan dimension(0) inclusive(true) ins(%x : tensor<8xi32>) outs(%o, %a : tensor<8xi32>, tensor<i32>) {
  ^bb0(%l: i32, %v: i32):
    %s = arith.subi %l, %v : i32
    tessel.yield %s : i32
  } -> tensor<8xi32>, tensor<i32>
  return
}

// -----

func.func @scan_region_type(%x: tensor<8xi32>, %o: tensor<8xi32>, %a: tensor<i32>) {
  // expected-error @+1 {{combiner region argument 1 has type 'f32', expected 'i32'}}
  %r:2 = tessel.scan dimension(0) inclusive(true) ins(%x : tensor<8xi32>) outs(%o, %a : tensor<8xi32>, tensor<i32>) {
  ^bb0(%l: i32, %v: f32):
    tessel.yield %l : i32
  } -> tensor<8xi32>, tensor<i32>
  return
}

// -----

func.func @gather_float_indices(%t: tensor<10x4xf32>, %i: tensor<3xf32>, %o: tensor<3x4xf32>) {
  // expected-error @+1 {{indices must have integer or index elements, got 'f32'}}
  %g = tessel.gather dimension_map = [0] ins(%t, %i : tensor<10x4xf32>, tensor<3xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_depth_mismatch(%t: tensor<10x4xf32>, %i: tensor<3x2xi32>, %o: tensor<3x4xf32>) {
  // expected-error @+1 {{indices 'tensor<3x2xi32>' do not match output 'tensor<3x4xf32>': expected indices [batch..., 1] with output [batch..., source dimensions not in dimension_map]}}
  %g = tessel.gather dimension_map = [0] ins(%t, %i : tensor<10x4xf32>, tensor<3x2xi32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_map_out_of_range(%t: tensor<10x4xf32>, %i: tensor<3xi32>, %o: tensor<3x4xf32>) {
  // expected-error @+1 {{dimension_map entry 2 is out of range for source of rank 2}}
  %g = tessel.gather dimension_map = [2] ins(%t, %i : tensor<10x4xf32>, tensor<3xi32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_slice_mismatch(%t: tensor<10x4xf32>, %i: tensor<3xi32>, %o: tensor<3x5xf32>) {
  // expected-error @+1 {{output dimension 1 (5) differs from source dimension 1 (4)}}
  %g = tessel.gather dimension_map = [0] ins(%t, %i : tensor<10x4xf32>, tensor<3xi32>) outs(%o : tensor<3x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @scatter_duplicate_map(%u: tensor<3xf32>, %i: tensor<3x2xi32>, %o: tensor<4x4xf32>) {
  // expected-error @+1 {{dimension_map has 0 twice}}
  %s = tessel.scatter dimension_map = [0, 0] unique_indices(true) ins(%u, %i : tensor<3xf32>, tensor<3x2xi32>) outs(%o : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    tessel.yield %a : f32
  } -> tensor<4x4xf32>
  return
}

// -----

func.func @scatter_batch_mismatch(%u: tensor<3x4xf32>, %i: tensor<5x1xi32>, %o: tensor<9x4xf32>) {
  // expected-error @+1 {{batch dimension 0 of indices (5) differs from updates (3)}}
  %s = tessel.scatter dimension_map = [0] unique_indices(false) ins(%u, %i : tensor<3x4xf32>, tensor<5x1xi32>) outs(%o : tensor<9x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tessel.yield %c : f32
  } -> tensor<9x4xf32>
  return
}

// -----

func.func @sort_shape(%k: tensor<8xi32>, %v: tensor<9xf32>) {
  // expected-error @+1 {{operand 1 'tensor<9xf32>' must have the shape of operand 0 'tensor<8xi32>'}}
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<8xi32>, tensor<9xf32>) {
  ^bb0(%a: i32, %b: i32, %x: f32, %y: f32):
    %c = arith.cmpi slt, %a, %b : i32
    tessel.yield %c : i1
  } -> tensor<8xi32>, tensor<9xf32>
  return
}

// -----

func.func @sort_yield(%k: tensor<8xi32>) {
  // expected-error @+1 {{comparator region must end in tessel.yield of one 'i1'}}
  %r = tessel.sort dimension(0) outs(%k : tensor<8xi32>) {
  ^bb0(%a: i32, %b: i32):
    tessel.yield %a : i32
  } -> tensor<8xi32>
  return
}

// -----

func.func @topk_k_too_large(%x: tensor<4x5xf32>, %v: tensor<4x6xf32>, %i: tensor<4x6xi32>) {
  // expected-error @+1 {{k = 6 exceeds the size of dimension 1 of values (5)}}
  %r:2 = tessel.topk dimension(1) ins(%x : tensor<4x5xf32>) outs(%v, %i : tensor<4x6xf32>, tensor<4x6xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    tessel.yield %c : i1
  } -> tensor<4x6xf32>, tensor<4x6xi32>
  return
}

// -----

func.func @arg_compare_index_type(%x: tensor<4x5xf32>, %v: tensor<4xf32>, %i: tensor<4xf32>) {
  // expected-error @+1 {{output index must have integer or index elements, got 'f32'}}
  %r:2 = tessel.arg_compare dimension(1) ins(%x : tensor<4x5xf32>) outs(%v, %i : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    tessel.yield %c : i1
  } -> tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @arg_compare_operands(%x: tensor<4x5xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{expects 2 outs (value, index), got 1}}
  %r = tessel.arg_compare dimension(1) ins(%x : tensor<4x5xf32>) outs(%v : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    tessel.yield %c : i1
  } -> tensor<4xf32>
  return
}

// -----

func.func @gather_scalar_indices(%t: tensor<10x4xf32>, %i: tensor<i32>, %o: tensor<4x4xf32>) {
  // expected-error @+1 {{indices 'tensor<i32>' do not match output 'tensor<4x4xf32>'}}
  %g = tessel.gather dimension_map = [0] ins(%t, %i : tensor<10x4xf32>, tensor<i32>) outs(%o : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @scatter_bad_workspace(%u: tensor<3xf32>, %i: tensor<3xi32>, %w: tensor<2x2xi64>, %o: tensor<9xf32>) {
  // expected-error @+1 {{workspace (the grid-barrier counter that tessel-add-primitive-workspaces adds) must be a 1-D i64 tensor, got 'tensor<2x2xi64>'}}
  %s = tessel.scatter dimension_map = [0] unique_indices(false) ins(%u, %i, %w : tensor<3xf32>, tensor<3xi32>, tensor<2x2xi64>) outs(%o : tensor<9xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tessel.yield %c : f32
  } -> tensor<9xf32>
  return
}

// -----

func.func @sort_workspace_count(%k: tensor<8xi32>, %w: tensor<8xi32>) {
  // expected-error @+1 {{takes no ins but radix-sort workspaces: one scratch buffer per outs operand, then i32 counts (1 ins for 1 outs)}}
  %r = tessel.sort dimension(0) ins(%w : tensor<8xi32>) outs(%k : tensor<8xi32>) {
  ^bb0(%a: i32, %b: i32):
    %c = arith.cmpi slt, %a, %b : i32
    tessel.yield %c : i1
  } -> tensor<8xi32>
  return
}

// -----

func.func @sort_workspace_type(%k: tensor<8xi32>, %w: tensor<8xf32>, %c: tensor<257xi32>) {
  // expected-error @+1 {{scratch 0 'tensor<8xf32>' must be shaped and typed like operand 0}}
  %r = tessel.sort dimension(0) ins(%w, %c : tensor<8xf32>, tensor<257xi32>) outs(%k : tensor<8xi32>) {
  ^bb0(%a: i32, %b: i32):
    %c1 = arith.cmpi slt, %a, %b : i32
    tessel.yield %c1 : i1
  } -> tensor<8xi32>
  return
}

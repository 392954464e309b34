//===- TesselPrimitiveOps.td - scan, gather, scatter, sort, ... -*- tablegen -*-===//
//
// The GPU-primitive ops of the primitives document (reference file 001):
// tensor ops that linalg cannot express. Assembly formats follow IREE's
// LinalgExt ops (scan, scatter, gather, sort, topk, arg_compare), so that a
// program written for IREE ports by renaming `iree_linalg_ext.` to
// `tessel.`. Each op is destination-passing on tensors or memrefs, has a
// verifier naming the operand at fault, the TilingInterface (its parallel
// loops tile; the loop it scans, sorts or reduces stays whole), and a
// reference lowering to loops (tessel-lower-primitives-to-loops).
// Semantics, including what happens to indices out of range, are in
// docs/design/primitives.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PRIMITIVE_OPS
#define TESSEL_PRIMITIVE_OPS

include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/TilingInterface.td"

def Tessel_YieldOp : Tessel_Op<"yield", [Pure, ReturnLike, Terminator]> {
  let summary = "terminator of a primitive's combiner or comparator region";
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

class Tessel_PrimitiveOp<string mnemonic, list<Trait> traits = []>
    : Tessel_Op<mnemonic, !listconcat(traits, [
        AttrSizedOperandSegments,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DestinationStyleOpInterface,
        DeclareOpInterfaceMethods<BufferizableOpInterface,
          ["bufferizesToMemoryRead", "bufferizesToMemoryWrite",
           "getAliasingValues", "bufferize"]>,
        DeclareOpInterfaceMethods<TilingInterface,
          ["getIterationDomain", "getLoopIteratorTypes",
           "getResultTilePosition", "getTiledImplementation"]>])> {
  let hasVerifier = 1;
  code commonDeclarations = [{
    MutableOperandRange getDpsInitsMutable() { return getOutputsMutable(); }
  }];
}

def Tessel_ScanOp : Tessel_PrimitiveOp<"scan",
    [SingleBlockImplicitTerminator<"::mlir::tessel::YieldOp">]> {
  let summary = "inclusive or exclusive scan along one dimension";
  let description = [{
    `outs(%out, %acc)`: %out has the input's shape, %acc the input's shape
    without `dimension`. The region combines the running value (first
    argument) with the next element (second) and must be associative.
    Inclusive: out[0] = in[0], out[i] = combine(out[i-1], in[i]); the
    initial %acc is not read. Exclusive: out[0] = %acc (the seed, e.g. 0),
    out[i] = combine(out[i-1], in[i-1]). The second result is the running
    total over every element (combine(out[n-1], in[n-1]) when exclusive).
    A second `ins` operand, added by tessel-add-primitive-workspaces and not
    written by users, is the look-back workspace: a 1-D i64 tensor of
    zeros that the GPU's decoupled look-back uses for its tile status.

    ```mlir
    %r:2 = tessel.scan dimension(1) inclusive(true)
        ins(%x : tensor<7x9xf32>) outs(%o, %a : tensor<7x9xf32>, tensor<7xf32>) {
      ^bb0(%l: f32, %r: f32):
        %s = arith.addf %l, %r : f32
        tessel.yield %s : f32
    } -> tensor<7x9xf32>, tensor<7xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       I64Attr:$dimension, BoolAttr:$inclusive);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)` `inclusive` `(` $inclusive `)`
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = commonDeclarations # [{
    Value getInput() { return getInputs()[0]; }
    Value getOutput() { return getOutputs()[0]; }
    Value getAccumulator() { return getOutputs()[1]; }
    ShapedType getInputType() { return cast<ShapedType>(getInput().getType()); }
  }];
}

def Tessel_GatherOp : Tessel_PrimitiveOp<"gather"> {
  let summary = "read slices of a source at computed indices";
  let description = [{
    `ins(%source, %indices)`: %indices is [batch..., depth] (or [batch...]
    when `dimension_map` has one entry); index k of a batch element indexes
    source dimension dimension_map[k]. The output is [batch...] followed by
    the source dimensions not in `dimension_map`, in order. Indices out of
    range are clamped into range (XLA's gather rule). i32, i64 or index.

    ```mlir
    %rows = tessel.gather dimension_map = [0]
        ins(%table, %ids : tensor<1000x768xf16>, tensor<37xi32>)
        outs(%e : tensor<37x768xf16>) -> tensor<37x768xf16>
    ```
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       DenseI64ArrayAttr:$dimension_map);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    attr-dict `dimension_map` `=` $dimension_map
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    (`->` type($results)^)?
  }];
  let extraClassDeclaration = commonDeclarations # [{
    Value getSource() { return getInputs()[0]; }
    Value getIndices() { return getInputs()[1]; }
    Value getOutput() { return getOutputs()[0]; }
    /// Number of leading output (and index) dimensions that are batch.
    int64_t getBatchRank();
  }];
}

def Tessel_ScatterOp : Tessel_PrimitiveOp<"scatter",
    [SingleBlockImplicitTerminator<"::mlir::tessel::YieldOp">]> {
  let summary = "combine slices into a destination at computed indices";
  let description = [{
    `ins(%updates, %indices) outs(%original)`: %indices is [batch...,
    depth] (or [batch...] when `dimension_map` has one entry), %updates is
    [batch...] followed by the dimensions of %original not in
    `dimension_map`. The region combines the update (first argument) with
    the current value (second): yield the first to replace, add them for
    index_add. Updates whose indices are out of range are skipped. With
    `unique_indices(false)` updates to the same element are applied one
    after another (replace: the last in batch order wins on the CPU; any
    one of them on the GPU); `unique_indices(true)` promises no duplicates.
    A third `ins` operand, added by tessel-add-primitive-workspaces and not
    written by users, is the GPU's grid-barrier counter (one i64 zero).

    ```mlir
    %h = tessel.scatter dimension_map = [0] unique_indices(false)
        ins(%ones, %bins : tensor<1000xi32>, tensor<1000x1xi32>)
        outs(%zeros : tensor<64xi32>) {
      ^bb0(%u: i32, %cur: i32):
        %s = arith.addi %u, %cur : i32
        tessel.yield %s : i32
    } -> tensor<64xi32>
    ```
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       DenseI64ArrayAttr:$dimension_map,
                       DefaultValuedAttr<BoolAttr, "true">:$unique_indices);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict `dimension_map` `=` $dimension_map
    `unique_indices` `(` $unique_indices `)`
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = commonDeclarations # [{
    Value getUpdates() { return getInputs()[0]; }
    Value getIndices() { return getInputs()[1]; }
    Value getOriginal() { return getOutputs()[0]; }
    /// Number of leading update (and index) dimensions that are batch.
    int64_t getBatchRank();
  }];
}

def Tessel_SortOp : Tessel_PrimitiveOp<"sort",
    [SingleBlockImplicitTerminator<"::mlir::tessel::YieldOp">]> {
  let summary = "stable sort of one or more operands along one dimension";
  let description = [{
    Sorts `outs` in place, together, along `dimension`. The comparator
    region takes (lhs0, rhs0, lhs1, rhs1, ...), one pair per operand, and
    yields i1: true when lhs goes strictly before rhs (a strict weak
    order). The sort is stable: equal elements keep their order.
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       I64Attr:$dimension);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)`
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = commonDeclarations # [{
    ShapedType getOperandType() {
      return cast<ShapedType>(getOutputs()[0].getType());
    }
  }];
}

def Tessel_TopkOp : Tessel_PrimitiveOp<"topk",
    [SingleBlockImplicitTerminator<"::mlir::tessel::YieldOp">]> {
  let summary = "the k first elements along one dimension, and their indices";
  let description = [{
    `ins(%values[, %indices]) outs(%out_values, %out_indices)`: the outputs
    are the input's shape with `dimension` reduced to k. The region yields
    true when its first argument goes strictly before its second (`ogt`
    for the largest k). Equal values keep input order. Output indices are
    the positions along `dimension` (or the given %indices there).
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       I64Attr:$dimension);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)`
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = commonDeclarations # [{
    Value getValues() { return getInputs()[0]; }
    Value getOutputValues() { return getOutputs()[0]; }
    Value getOutputIndices() { return getOutputs()[1]; }
  }];
}

def Tessel_ArgCompareOp : Tessel_PrimitiveOp<"arg_compare",
    [SingleBlockImplicitTerminator<"::mlir::tessel::YieldOp">]> {
  let summary = "argmax / argmin along one dimension with a comparator";
  let description = [{
    `ins(%x) outs(%value, %index)`: the outputs are %x's shape without
    `dimension`; their initial contents are the starting best (e.g. -inf
    and 0). Element i replaces the best when the region yields true for
    (x[i], best) (`ogt`: argmax, first maximum kept). The index stored is
    i + `index_base` (0 when absent).
  }];
  let arguments = (ins Variadic<AnyShaped>:$inputs,
                       Variadic<AnyShaped>:$outputs,
                       Optional<Index>:$index_base,
                       I64Attr:$dimension);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)`
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)`
    (`index_base` `(` $index_base^ `:` type($index_base) `)`)?
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = commonDeclarations # [{
    Value getInput() { return getInputs()[0]; }
    Value getOutputValue() { return getOutputs()[0]; }
    Value getOutputIndex() { return getOutputs()[1]; }
  }];
}

#endif // TESSEL_PRIMITIVE_OPS

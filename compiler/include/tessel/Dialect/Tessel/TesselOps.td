//===- TesselOps.td - Tessel dialect ---------------------------*- tablegen -*-===//
//
// The few ops Tessel adds to upstream MLIR: the boundary between a host
// program and its dispatches, and the kernel ABI of a dispatch.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_OPS
#define TESSEL_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tessel_Dialect : Dialect {
  let name = "tessel";
  let cppNamespace = "::mlir::tessel";
  let summary = "Host programs and dispatch kernels of the Tessel compiler";
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

class Tessel_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tessel_Dialect, mnemonic, traits>;

def Tessel_DispatchOp : Tessel_Op<"dispatch",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>, AttrSizedOperandSegments]> {
  let summary = "run one dispatch function on the device";
  let description = [{
    Calls the dispatch function `callee` (a private `func.func` over tensors
    whose body becomes one kernel per target). Operands become read-only
    bindings, results become fresh buffers. The host program is what is left
    of a public function once every computation sits behind a dispatch.

    `dims` lists the dynamic dimensions of the operands, then of the
    results, each tensor's in order: the host computes them, and the kernel
    receives them as push constants (its only way to learn its extents).

    ```mlir
    %r = tessel.dispatch @main_dispatch_0(%a, %b)
        : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %s = tessel.dispatch @main_dispatch_1(%x)[%n, %n]
        : (tensor<?x8xf32>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyRankedTensor>:$inputs,
                       Variadic<Index>:$dims);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` (`[` $dims^ `]`)? attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The dims of the results' dynamic dimensions (the tail of `dims`).
    ValueRange getResultDims();
  }];
}

def Tessel_PushConstantOp : Tessel_Op<"push_constant", [Pure]> {
  let summary = "a value the host passes to a kernel with its dispatch";
  let description = [{
    Push constant `index` of the kernel (schema `Export.push_constant_count`):
    the dispatch's `dims`, in order. Each target lowers it to its kernel
    ABI (cpu: an entry of the binding table; cuda: a kernel parameter).

    ```mlir
    %n = tessel.push_constant 0 : index
    ```
  }];
  let arguments = (ins I64Attr:$index);
  let results = (outs Index:$result);
  let assemblyFormat = "$index attr-dict `:` type($result)";
}

def Tessel_AssertOp : Tessel_Op<"assert"> {
  let summary = "a check of the host program that fails the call";
  let description = [{
    When `condition` is false the call fails with `message`, each `{}` in
    it replaced by the next of `values` (schema opcode `Assert`). The host
    checks with it what the kernels rely on: dynamic dimensions that must
    agree (tessel-insert-shape-checks).

    ```mlir
    tessel.assert %eq, "argument 1 dimension 0 ({}) must equal argument 0 dimension 0 ({})" [%n1, %n0]
    ```
  }];
  let arguments = (ins I1:$condition, StrAttr:$message,
                       Variadic<Index>:$values);
  let assemblyFormat = [{
    $condition `,` $message (`[` $values^ `]`)? attr-dict
  }];
  let hasCanonicalizeMethod = 1;
}

def Tessel_BindingOp : Tessel_Op<"binding", [Pure]> {
  let summary = "the buffer bound at an index of a kernel's binding table";
  let description = [{
    Kernel ABI on the CPU: a kernel receives `void **bindings` (a pointer to
    the binding table) and the workgroup id. `tessel.binding` loads entry
    `index` of the table and views it as a statically shaped, identity-layout
    memref. Buffers are at least 64-byte aligned.

    ```mlir
    %m = tessel.binding %bindings[1] : memref<37x53xf32>
    ```
  }];
  let arguments = (ins AnyType:$table, I64Attr:$index);
  let results = (outs AnyStaticShapeMemRef:$result);
  let assemblyFormat = "$table `[` $index `]` attr-dict `:` type($table) `->` type($result)";
}

include "tessel/Dialect/Tessel/TesselAttrs.td"
include "tessel/Dialect/Tessel/TesselPrimitiveOps.td"
include "tessel/Dialect/Tessel/TesselCUDAOps.td"
include "tessel/Dialect/Tessel/TesselAttentionOp.td"

#endif // TESSEL_OPS

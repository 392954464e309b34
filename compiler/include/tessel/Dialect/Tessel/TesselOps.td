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
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run one dispatch function on the device";
  let description = [{
    Calls the dispatch function `callee` (a private `func.func` over tensors
    whose body becomes one kernel per target). Operands become read-only
    bindings, results become fresh buffers. The host program is what is left
    of a public function once every computation sits behind a dispatch.

    ```mlir
    %r = tessel.dispatch @main_dispatch_0(%a, %b)
        : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyRankedTensor>:$operands);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)
  }];
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

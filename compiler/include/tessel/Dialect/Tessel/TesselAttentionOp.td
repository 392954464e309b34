//===- TesselAttentionOp.td - tessel.attention -----------------*- tablegen -*-===//
//
// Scaled dot-product attention as one op, in the assembly format of IREE's
// LinalgExt `attention` (indexing maps over one iteration domain, a scale,
// an optional additive mask, a region that may rewrite each score), so that
// an IREE program ports by renaming `iree_linalg_ext.` to `tessel.`.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_ATTENTION_OP
#define TESSEL_ATTENTION_OP

include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tessel_AttentionOp : Tessel_Op<"attention",
    [Pure, DestinationStyleOpInterface,
     SingleBlockImplicitTerminator<"::mlir::tessel::YieldOp">]> {
  let summary = "softmax(Q K^T * scale + mask) V";
  let description = [{
    `ins(%q, %k, %v, %scale[, %mask]) outs(%out)`, with `indexing_maps` for
    Q, K, V, the scale (`() -> ()`), the mask if present, and the output,
    all over one iteration domain whose loops take their roles from the
    maps: batch loops (in every operand), M (Q and the output, not K), K1
    (Q and K), K2 (K and V, not Q) and N (V and the output). With
    S[b, m, k2] = scale * sum_k1 Q[b, m, k1] * K[b, k2, k1] + mask[b, m, k2],
    each score is passed through the region (which yields the score to use,
    e.g. itself), and
    out[b, m, n] = sum_k2 softmax_k2(S)[b, m, k2] * V[b, k2, n].
    Scores and sums are f32 whatever the operand types (f16, bf16 or f32);
    the output is rounded once. A mask of -inf removes a key; a row whose
    keys are all removed gives NaN, as softmax does.

    ```mlir
    %o = tessel.attention {indexing_maps = [
            affine_map<(b, m, n, k1, k2) -> (b, m, k1)>,
            affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>,
            affine_map<(b, m, n, k1, k2) -> (b, k2, n)>,
            affine_map<(b, m, n, k1, k2) -> ()>,
            affine_map<(b, m, n, k1, k2) -> (b, m, n)>]}
        ins(%q, %k, %v, %scale : tensor<12x128x64xf16>, tensor<12x128x64xf16>,
            tensor<12x128x64xf16>, f16)
        outs(%e : tensor<12x128x64xf16>) {
      ^bb0(%score: f32):
        tessel.yield %score : f32
    } -> tensor<12x128x64xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$query, AnyRankedTensor:$key,
                       AnyRankedTensor:$value, AnyFloat:$scale,
                       Optional<AnyRankedTensor>:$mask,
                       AnyRankedTensor:$output,
                       AffineMapArrayAttr:$indexing_maps);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$region);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
    AffineMap getQueryMap() { return getIndexingMapsArray()[0]; }
    AffineMap getKeyMap() { return getIndexingMapsArray()[1]; }
    AffineMap getValueMap() { return getIndexingMapsArray()[2]; }
    AffineMap getScaleMap() { return getIndexingMapsArray()[3]; }
    std::optional<AffineMap> getMaskMap() {
      if (!getMask())
        return std::nullopt;
      return getIndexingMapsArray()[4];
    }
    AffineMap getOutputMap() { return getIndexingMapsArray().back(); }
    SmallVector<AffineMap> getIndexingMapsArray() {
      return llvm::to_vector(
          getIndexingMaps().getAsValueRange<AffineMapAttr>());
    }
    /// The loops of the iteration domain by role (see the description).
    struct Dims {
      SmallVector<unsigned> batch, m, k1, k2, n;
    };
    FailureOr<Dims> getDims();
    /// Size of each loop, from the operand shapes.
    SmallVector<int64_t> getStaticLoopRanges();
  }];
}

#endif // TESSEL_ATTENTION_OP

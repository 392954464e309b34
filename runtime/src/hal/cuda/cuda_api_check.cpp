// Build-time check of cuda_api.h against the real cuda.h: every row of
// TESSEL_CUDA_SYMBOLS must have the arity, return and parameter types of the
// prototype cuda.h declares (an int may stand for a C enum). Built only where
// the CUDA toolkit headers exist; the runtime itself never includes cuda.h.
#include <cuda.h>

#include "hal/cuda/cuda_api.h"

#include <type_traits>

// CUDA 13's cuda.h maps cuCtxCreate to _v4 and declares cuCtxCreate_v2 only in
// its internal section; this is that prototype, copied from there.
extern "C" CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);

namespace {

template <typename Ours, typename Theirs>
constexpr bool kSameValue =
    std::is_same_v<Ours, Theirs> || (std::is_enum_v<Theirs> && std::is_same_v<Ours, int>);

template <typename Ours, typename Theirs> constexpr bool compatible() {
  if constexpr (std::is_pointer_v<Ours> && std::is_pointer_v<Theirs>)
    return kSameValue<std::remove_pointer_t<Ours>, std::remove_pointer_t<Theirs>>;
  else
    return kSameValue<Ours, Theirs>;
}

template <typename Ours, typename Theirs> struct SameSignature : std::false_type {};
template <typename RO, typename... PO, typename RT, typename... PT>
struct SameSignature<RO (*)(PO...), RT (*)(PT...)> {
  static constexpr bool value = sizeof...(PO) == sizeof...(PT) && kSameValue<RO, RT> &&
                                (compatible<PO, PT>() && ...);
};

using Api = tessel::rt::hal::cuda::CudaApi;

#define TESSEL_CUDA_CHECK(name, params)                                                           \
  static_assert(SameSignature<decltype(Api::name), decltype(&::name)>::value,                     \
                #name " does not match cuda.h");
TESSEL_CUDA_SYMBOLS(TESSEL_CUDA_CHECK)

// Maps are encoded into TensorMapStorage and passed as CUtensorMap by value.
using tessel::rt::hal::cuda::TensorMapStorage;
static_assert(sizeof(TensorMapStorage) == sizeof(CUtensorMap) &&
                  sizeof(TensorMapStorage) == CU_TENSOR_MAP_NUM_QWORDS * sizeof(cuuint64_t),
              "TensorMapStorage does not have the size of cuda.h's CUtensorMap");
static_assert(alignof(TensorMapStorage) >= alignof(CUtensorMap),
              "TensorMapStorage is less aligned than cuda.h's CUtensorMap");

} // namespace

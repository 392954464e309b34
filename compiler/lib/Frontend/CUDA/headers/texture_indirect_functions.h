/*===- texture_indirect_functions.h - Tessel CUDA headers: tex*<T>(obj) ---===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md). Texture-object
 * fetches, implemented with clang's __nv_tex_surf_handler
 * (__clang_cuda_texture_intrinsics.h). Texture references (texture<T, N>)
 * do not exist in CUDA 13.
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_TEXTURE_INDIRECT_FUNCTIONS_H__
#define __TESSEL_TEXTURE_INDIRECT_FUNCTIONS_H__
#define __TEXTURE_INDIRECT_FUNCTIONS_H__
#define __TEXTURE_INDIRECT_FUNCTIONS_HPP__

#include "texture_types.h"

template <class T>
static __device__ void tex1Dfetch(T *ptr, cudaTextureObject_t obj, int x) {
  __nv_tex_surf_handler("__itex1Dfetch", ptr, obj, x);
}
template <class T>
static __device__ T tex1Dfetch(cudaTextureObject_t obj, int x) {
  T ret;
  tex1Dfetch(&ret, obj, x);
  return ret;
}
template <class T>
static __device__ void tex1D(T *ptr, cudaTextureObject_t obj, float x) {
  __nv_tex_surf_handler("__itex1D", ptr, obj, x);
}
template <class T>
static __device__ T tex1D(cudaTextureObject_t obj, float x) {
  T ret;
  tex1D(&ret, obj, x);
  return ret;
}
template <class T>
static __device__ void tex1DLod(T *ptr, cudaTextureObject_t obj, float x, float level) {
  __nv_tex_surf_handler("__itex1DLod", ptr, obj, x, level);
}
template <class T>
static __device__ T tex1DLod(cudaTextureObject_t obj, float x, float level) {
  T ret;
  tex1DLod(&ret, obj, x, level);
  return ret;
}
template <class T>
static __device__ void tex1DLayered(T *ptr, cudaTextureObject_t obj, float x, int layer) {
  __nv_tex_surf_handler("__itex1DLayered", ptr, obj, x, layer);
}
template <class T>
static __device__ T tex1DLayered(cudaTextureObject_t obj, float x, int layer) {
  T ret;
  tex1DLayered(&ret, obj, x, layer);
  return ret;
}
template <class T>
static __device__ void tex1DLayeredLod(T *ptr, cudaTextureObject_t obj, float x, int layer, float level) {
  __nv_tex_surf_handler("__itex1DLayeredLod", ptr, obj, x, layer, level);
}
template <class T>
static __device__ T tex1DLayeredLod(cudaTextureObject_t obj, float x, int layer, float level) {
  T ret;
  tex1DLayeredLod(&ret, obj, x, layer, level);
  return ret;
}
template <class T>
static __device__ void tex2D(T *ptr, cudaTextureObject_t obj, float x, float y) {
  __nv_tex_surf_handler("__itex2D", ptr, obj, x, y);
}
template <class T>
static __device__ T tex2D(cudaTextureObject_t obj, float x, float y) {
  T ret;
  tex2D(&ret, obj, x, y);
  return ret;
}
template <class T>
static __device__ void tex2DLod(T *ptr, cudaTextureObject_t obj, float x, float y, float level) {
  __nv_tex_surf_handler("__itex2DLod", ptr, obj, x, y, level);
}
template <class T>
static __device__ T tex2DLod(cudaTextureObject_t obj, float x, float y, float level) {
  T ret;
  tex2DLod(&ret, obj, x, y, level);
  return ret;
}
template <class T>
static __device__ void tex2DLayered(T *ptr, cudaTextureObject_t obj, float x, float y, int layer) {
  __nv_tex_surf_handler("__itex2DLayered", ptr, obj, x, y, layer);
}
template <class T>
static __device__ T tex2DLayered(cudaTextureObject_t obj, float x, float y, int layer) {
  T ret;
  tex2DLayered(&ret, obj, x, y, layer);
  return ret;
}
template <class T>
static __device__ void tex2DLayeredLod(T *ptr, cudaTextureObject_t obj, float x, float y, int layer, float level) {
  __nv_tex_surf_handler("__itex2DLayeredLod", ptr, obj, x, y, layer, level);
}
template <class T>
static __device__ T tex2DLayeredLod(cudaTextureObject_t obj, float x, float y, int layer, float level) {
  T ret;
  tex2DLayeredLod(&ret, obj, x, y, layer, level);
  return ret;
}
template <class T>
static __device__ void tex3D(T *ptr, cudaTextureObject_t obj, float x, float y, float z) {
  __nv_tex_surf_handler("__itex3D", ptr, obj, x, y, z);
}
template <class T>
static __device__ T tex3D(cudaTextureObject_t obj, float x, float y, float z) {
  T ret;
  tex3D(&ret, obj, x, y, z);
  return ret;
}
template <class T>
static __device__ void tex3DLod(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float level) {
  __nv_tex_surf_handler("__itex3DLod", ptr, obj, x, y, z, level);
}
template <class T>
static __device__ T tex3DLod(cudaTextureObject_t obj, float x, float y, float z, float level) {
  T ret;
  tex3DLod(&ret, obj, x, y, z, level);
  return ret;
}
template <class T>
static __device__ void texCubemap(T *ptr, cudaTextureObject_t obj, float x, float y, float z) {
  __nv_tex_surf_handler("__itexCubemap", ptr, obj, x, y, z);
}
template <class T>
static __device__ T texCubemap(cudaTextureObject_t obj, float x, float y, float z) {
  T ret;
  texCubemap(&ret, obj, x, y, z);
  return ret;
}
template <class T>
static __device__ void texCubemapLod(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float level) {
  __nv_tex_surf_handler("__itexCubemapLod", ptr, obj, x, y, z, level);
}
template <class T>
static __device__ T texCubemapLod(cudaTextureObject_t obj, float x, float y, float z, float level) {
  T ret;
  texCubemapLod(&ret, obj, x, y, z, level);
  return ret;
}
template <class T>
static __device__ void texCubemapLayered(T *ptr, cudaTextureObject_t obj, float x, float y, float z, int layer) {
  __nv_tex_surf_handler("__itexCubemapLayered", ptr, obj, x, y, z, layer);
}
template <class T>
static __device__ T texCubemapLayered(cudaTextureObject_t obj, float x, float y, float z, int layer) {
  T ret;
  texCubemapLayered(&ret, obj, x, y, z, layer);
  return ret;
}
template <class T>
static __device__ void tex2Dgather(T *ptr, cudaTextureObject_t obj, float x,
                                   float y, int comp = 0) {
  __nv_tex_surf_handler("__itex2Dgather", ptr, obj, x, y, comp);
}
template <class T>
static __device__ T tex2Dgather(cudaTextureObject_t obj, float x, float y,
                                int comp = 0) {
  T ret;
  tex2Dgather(&ret, obj, x, y, comp);
  return ret;
}

#endif /* __TESSEL_TEXTURE_INDIRECT_FUNCTIONS_H__ */

"""tosa.fft2d / tosa.rfft2d: TOSA's FFT2D is the unnormalized DFT over the
last two axes with exp(-i a) (forward) or exp(+i a) (inverse, no 1/(H*W));
RFFT2D is the forward DFT of a real input, first W/2 + 1 columns. numpy's
FFT in float64 is the reference."""
import numpy as np


def reference_fft(re, im):
    z = re.astype(np.float64) + 1j * im.astype(np.float64)
    f = np.fft.fft2(z, axes=(1, 2))
    inv = np.fft.ifft2(z, axes=(1, 2)) * (z.shape[1] * z.shape[2])
    return [v.astype(np.float32) for v in (f.real, f.imag, inv.real, inv.imag)]


def reference_rfft(x):
    f = np.fft.rfft2(x.astype(np.float64), axes=(1, 2))
    return [f.real.astype(np.float32), f.imag.astype(np.float32)]


# Each output sums H*W = 128 terms x * cos/sin(angle) in f32 (any order,
# with f32 angles): ~1e-6 relative to sum |x| ~ 100, i.e. a few 1e-5
# relative to (1+|exp|) for small outputs: 1e-4 (a K = 128 contraction).
ENTRIES = [
    ("fft2d", lambda rng: [rng.standard_normal((3, 8, 16)).astype(np.float32),
                           rng.standard_normal((3, 8, 16)).astype(np.float32)],
     reference_fft, 1e-4),
    ("rfft2d", lambda rng: [rng.standard_normal((2, 16, 8)).astype(np.float32)],
     reference_rfft, 1e-4),
]

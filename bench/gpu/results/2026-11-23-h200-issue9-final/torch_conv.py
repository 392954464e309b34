# cuDNN through PyTorch on the MobileNet 1x1 convolutions (channels_last,
# f16, batch 1), if torch is there. Device time per call: 100 calls
# captured in a CUDA graph, the replay timed with events (so Python's
# launch cost is not counted), median of 50 replays after warm-up.
import sys
try:
    import torch
except Exception as e:
    print("torch: not available:", e); sys.exit(0)
print("torch", torch.__version__, "cudnn", torch.backends.cudnn.version())
torch.backends.cudnn.benchmark = True
for h, cin, cout in [(56, 64, 128), (28, 128, 256), (28, 256, 256)]:
    x = torch.randn(1, cin, h, h, device="cuda", dtype=torch.float16).to(memory_format=torch.channels_last)
    conv = torch.nn.Conv2d(cin, cout, 1, bias=False).cuda().half().to(memory_format=torch.channels_last)
    with torch.no_grad():
        for _ in range(50):
            conv(x)
        torch.cuda.synchronize()
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                conv(x)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(100):
                y = conv(x)
        for _ in range(10):
            g.replay()
        t0 = torch.cuda.Event(enable_timing=True); t1 = torch.cuda.Event(enable_timing=True)
        ts = []
        for _ in range(50):
            t0.record(); g.replay(); t1.record(); t1.synchronize()
            ts.append(t0.elapsed_time(t1) * 1000 / 100)
    ts.sort()
    print(f"torch conv 1x1 f16 {h}x{h}x{cin}->{cout}: {ts[len(ts)//2]:.2f} us per call (graph of 100, median of 50)")

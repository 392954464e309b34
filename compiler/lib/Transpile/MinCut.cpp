//===- MinCut.cpp - which values to store across a thread-loop cut --------===//

#include "tessel/Transpile/MinCut.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <limits>

using namespace mlir;

namespace {

constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max() / 4;

/// A directed graph with capacities, for max-flow.
class FlowGraph {
public:
  unsigned addNode() {
    adjacency.emplace_back();
    return adjacency.size() - 1;
  }
  void addEdge(unsigned from, unsigned to, int64_t capacity) {
    adjacency[from].push_back(edges.size());
    edges.push_back({to, capacity});
    adjacency[to].push_back(edges.size());
    edges.push_back({from, 0});
  }

  /// Saturates the graph from `s` to `t` (Edmonds-Karp: shortest augmenting
  /// paths first).
  void maxFlow(unsigned s, unsigned t) {
    for (;;) {
      SmallVector<int> via(adjacency.size(), -1);
      std::deque<unsigned> queue{s};
      via[s] = -2;
      while (!queue.empty() && via[t] == -1) {
        unsigned n = queue.front();
        queue.pop_front();
        for (unsigned e : adjacency[n])
          if (edges[e].capacity > 0 && via[edges[e].to] == -1) {
            via[edges[e].to] = e;
            queue.push_back(edges[e].to);
          }
      }
      if (via[t] == -1)
        return;
      int64_t push = kInfinite;
      for (unsigned n = t; n != s; n = edges[via[n] ^ 1].to)
        push = std::min(push, edges[via[n]].capacity);
      for (unsigned n = t; n != s; n = edges[via[n] ^ 1].to) {
        edges[via[n]].capacity -= push;
        edges[via[n] ^ 1].capacity += push;
      }
    }
  }

  /// Nodes that can still reach `t` in the residual graph: the sink side of
  /// the minimum cut nearest `t`.
  SmallVector<bool> reachingSink(unsigned t) {
    SmallVector<bool> reach(adjacency.size(), false);
    std::deque<unsigned> queue{t};
    reach[t] = true;
    while (!queue.empty()) {
      unsigned n = queue.front();
      queue.pop_front();
      // An edge m -> n with residual capacity is the reverse of an edge
      // n -> m (index e ^ 1) seen from n.
      for (unsigned e : adjacency[n]) {
        unsigned m = edges[e].to;
        if (!reach[m] && edges[e ^ 1].capacity > 0) {
          reach[m] = true;
          queue.push_back(m);
        }
      }
    }
    return reach;
  }

private:
  struct Edge {
    unsigned to;
    int64_t capacity;
  };
  SmallVector<Edge> edges;
  SmallVector<SmallVector<unsigned>> adjacency;
};

/// Bytes a stored value takes per thread (at least 1).
int64_t storedSize(Value v) {
  Type t = v.getType();
  if (t.isIntOrFloat())
    return std::max<int64_t>(1, (t.getIntOrFloatBitWidth() + 7) / 8);
  return 8; // index, pointers
}

} // namespace

llvm::DenseSet<Value> mlir::tessel::chooseStoredValues(
    ArrayRef<Value> needed, function_ref<bool(Value)> inside,
    function_ref<bool(Value)> free,
    function_ref<bool(Operation *)> recomputable) {
  FlowGraph g;
  unsigned source = g.addNode(), sink = g.addNode();
  // Each inside value that is not free: an in node, an out node and an edge
  // between them of its size (cutting it = storing it).
  llvm::DenseMap<Value, unsigned> inNode;
  SmallVector<Value> worklist;
  auto nodeOf = [&](Value v) -> std::optional<unsigned> {
    if (!inside(v) || free(v))
      return std::nullopt;
    auto [it, added] = inNode.try_emplace(v, 0);
    if (added) {
      it->second = g.addNode();
      unsigned out = g.addNode();
      (void)out; // out = in + 1
      g.addEdge(it->second, it->second + 1, storedSize(v));
      worklist.push_back(v);
    }
    return it->second;
  };
  for (Value v : needed)
    if (std::optional<unsigned> n = nodeOf(v))
      g.addEdge(*n + 1, sink, kInfinite);
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    unsigned in = inNode.lookup(v);
    Operation *def = v.getDefiningOp();
    if (!def || !recomputable(def)) {
      // Only storing it (or a value computed from it) gets it across.
      g.addEdge(source, in, kInfinite);
      continue;
    }
    for (Value operand : def->getOperands())
      if (std::optional<unsigned> n = nodeOf(operand))
        g.addEdge(*n + 1, in, kInfinite);
  }
  g.maxFlow(source, sink);
  SmallVector<bool> sinkSide = g.reachingSink(sink);
  llvm::DenseSet<Value> stored;
  for (auto [v, in] : inNode)
    if (!sinkSide[in] && sinkSide[in + 1])
      stored.insert(v);
  return stored;
}

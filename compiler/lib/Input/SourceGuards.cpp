//===- SourceGuards.cpp - input checks around the MLIR parser ----------===//

#include "tessel/Input/SourceGuards.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace {

bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

/// Whether `text` starts with `[` integers separated by commas `]`
/// (blanks allowed), or with `array<` (the generic form's attribute, which
/// the attribute parser checks properly).
bool startsWithIntegerList(StringRef text) {
  text = text.ltrim();
  if (text.starts_with("array<"))
    return true;
  if (!text.consume_front("["))
    return false;
  text = text.ltrim();
  if (text.consume_front("]"))
    return true;
  while (true) {
    text.consume_front("-");
    size_t digits = 0;
    while (digits < text.size() && llvm::isDigit(text[digits]))
      ++digits;
    if (digits == 0 || digits > 19)
      return false;
    text = text.drop_front(digits).ltrim();
    if (text.consume_front("]"))
      return true;
    if (!text.consume_front(","))
      return false;
    text = text.ltrim();
  }
}

/// The offset in `text` past the bracketed list that starts at `pos` (an
/// opening '['), or npos when it does not close.
size_t skipBracketed(StringRef text, size_t pos) {
  int depth = 0;
  for (size_t i = pos; i < text.size(); ++i) {
    char c = text[i];
    if (c == '>' && i > 0 && text[i - 1] == '-')
      continue; // an affine map's arrow
    if (c == '[' || c == '(' || c == '<' || c == '{')
      ++depth;
    else if (c == ']' || c == ')' || c == '>' || c == '}')
      if (--depth == 0)
        return i + 1;
  }
  return StringRef::npos;
}

/// For the custom form of a linalg op whose name ends at `pos`: the offset
/// of a `<` opening its properties that is not followed by `{` (MLIR 22
/// casts whatever attribute follows to a dictionary), or npos. The `<` may
/// follow `indexing_maps = [...]` (named ops) or an attribute dictionary
/// (linalg.generic's `{indexing_maps = ..., iterator_types = ...}`).
size_t badLinalgProperties(StringRef text, size_t pos) {
  auto skipBlanks = [&](size_t i) {
    while (i < text.size() && llvm::isSpace(text[i]))
      ++i;
    return i;
  };
  size_t i = skipBlanks(pos);
  if (i < text.size() && text[i] == '{') {
    i = skipBracketed(text, i);
    if (i == StringRef::npos)
      return StringRef::npos;
    i = skipBlanks(i);
  }
  if (text.substr(i).starts_with("indexing_maps")) {
    i = skipBlanks(i + strlen("indexing_maps"));
    if (i >= text.size() || text[i] != '=')
      return StringRef::npos;
    i = skipBlanks(i + 1);
    if (i >= text.size() || text[i] != '[')
      return StringRef::npos;
    i = skipBracketed(text, i);
    if (i == StringRef::npos)
      return StringRef::npos;
    i = skipBlanks(i);
  }
  if (i >= text.size() || text[i] != '<')
    return StringRef::npos;
  size_t next = skipBlanks(i + 1);
  return next < text.size() && text[next] == '{' ? StringRef::npos : i;
}

/// For an expand_shape / collapse_shape in custom form whose name ends at
/// `pos` (`%src [[0, 1], [2]] ...`): whether its reassociation, if written
/// there, is a list of non-empty groups of consecutive dimensions from 0
/// (MLIR 22's verifier crashes on an empty group).
bool goodReassociation(StringRef text, size_t pos) {
  StringRef rest = text.substr(pos).ltrim();
  if (!rest.consume_front("%"))
    return true;
  while (!rest.empty() && (isIdentifierChar(rest.front()) || rest.front() == '#'))
    rest = rest.drop_front();
  rest = rest.ltrim();
  if (!rest.consume_front("["))
    return true;
  int64_t next = 0;
  rest = rest.ltrim();
  if (rest.consume_front("]"))
    return true;
  while (true) {
    if (!rest.consume_front("["))
      return false;
    bool empty = true;
    while (true) {
      rest = rest.ltrim();
      size_t digits = 0;
      while (digits < rest.size() && llvm::isDigit(rest[digits]))
        ++digits;
      int64_t index;
      if (digits == 0 || digits > 9 || rest.take_front(digits).getAsInteger(10, index) ||
          index != next)
        return false;
      ++next;
      empty = false;
      rest = rest.drop_front(digits).ltrim();
      if (rest.consume_front("]"))
        break;
      if (!rest.consume_front(","))
        return false;
    }
    if (empty)
      return false;
    rest = rest.ltrim();
    if (rest.consume_front("]"))
      return true;
    if (!rest.consume_front(","))
      return false;
    rest = rest.ltrim();
  }
}

/// For a TOSA op in custom form whose name ends at `pos` (`%a, %b {...}`):
/// the offset of the first entry of its attribute dictionary that does not
/// start with a bare attribute name (a quoted name, a stray token, an empty
/// entry from an extra comma), or npos. MLIR 22's TOSA parsers fail on
/// those without a message.
size_t badTosaAttributeEntry(StringRef text, size_t pos) {
  size_t i = pos;
  auto skipBlanks = [&] {
    while (i < text.size() && llvm::isSpace(text[i]))
      ++i;
  };
  // The operands: %name[#n] separated by commas.
  skipBlanks();
  while (i < text.size() && text[i] == '%') {
    ++i;
    while (i < text.size() && (isIdentifierChar(text[i]) || text[i] == '#'))
      ++i;
    skipBlanks();
    if (i >= text.size() || text[i] != ',')
      break;
    ++i;
    skipBlanks();
  }
  if (i >= text.size() || text[i] != '{')
    return StringRef::npos;
  size_t end = skipBracketed(text, i);
  if (end == StringRef::npos)
    return StringRef::npos; // unbalanced: the parser reports it
  ++i;
  skipBlanks();
  if (i + 1 == end)
    return StringRef::npos; // {}
  while (true) {
    skipBlanks();
    // An entry must follow `{` and every comma: `,}` is an empty one.
    if (i >= end - 1 || !(llvm::isAlpha(text[i]) || text[i] == '_'))
      return i;
    // Past this entry's value, to the next top-level comma.
    int depth = 0;
    for (; i < end - 1; ++i) {
      char c = text[i];
      if (c == '"') {
        for (++i; i < end - 1 && text[i] != '"'; ++i)
          if (text[i] == '\\')
            ++i;
        continue;
      }
      if (c == '>' && text[i - 1] == '-')
        continue;
      if (c == '[' || c == '(' || c == '<' || c == '{')
        ++depth;
      else if (c == ']' || c == ')' || c == '>' || c == '}')
        --depth;
      else if (c == ',' && depth == 0)
        break;
    }
    if (i >= end - 1)
      return StringRef::npos;
    ++i; // the comma
  }
}

} // namespace

LogicalResult
mlir::tessel::checkSourceForParserHazards(const llvm::SourceMgr &sourceMgr,
                                          MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  bool ok = true;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    // Comments and string literals hold no attributes.
    if (c == '/' && text.substr(i, 2) == "//") {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
      continue;
    }
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (i > 0 && (isIdentifierChar(text[i - 1]) || text[i - 1] == '%' ||
                  text[i - 1] == '@' || text[i - 1] == '#' ||
                  text[i - 1] == '!' || text[i - 1] == '^'))
      continue;
    auto error = [&](size_t at) -> InFlightDiagnostic {
      unsigned line, column;
      std::tie(line, column) = sourceMgr.getLineAndColumn(
          llvm::SMLoc::getFromPointer(text.data() + at));
      ok = false;
      return emitError(FileLineColLoc::get(
          context, buffer->getBufferIdentifier(), line, column));
    };
    if (text.substr(i).starts_with("linalg.")) {
      size_t end = i + strlen("linalg.");
      while (end < text.size() && isIdentifierChar(text[end]))
        ++end;
      size_t bad = badLinalgProperties(text, end);
      if (bad != StringRef::npos)
        error(bad) << "malformed properties of '" << text.slice(i, end)
                   << "': expected '<{' (a dictionary)";
    }
    if (text.substr(i).starts_with("tosa.")) {
      size_t end = i + strlen("tosa.");
      while (end < text.size() && isIdentifierChar(text[end]))
        ++end;
      size_t bad = badTosaAttributeEntry(text, end);
      if (bad != StringRef::npos)
        error(bad) << "malformed attribute dictionary of '"
                   << text.slice(i, end)
                   << "': expected an attribute name (a bare identifier) "
                      "followed by '='";
    }
    for (StringRef op : {"tensor.expand_shape", "tensor.collapse_shape",
                         "memref.expand_shape", "memref.collapse_shape"}) {
      StringRef rest = text.substr(i);
      if (rest.starts_with(op) &&
          (rest.size() == op.size() || !isIdentifierChar(rest[op.size()])) &&
          !goodReassociation(text, i + op.size()))
        error(i) << "malformed reassociation of '" << op
                 << "': expected groups of consecutive dimensions, e.g. "
                    "[[0, 1], [2]]";
    }
    for (StringRef keyword : {"dimensions", "permutation"}) {
      StringRef rest = text.substr(i);
      if (!rest.consume_front(keyword) ||
          (!rest.empty() && isIdentifierChar(rest.front())))
        continue;
      rest = rest.ltrim();
      if (!rest.consume_front("=") || startsWithIntegerList(rest))
        continue;
      error(i) << "malformed '" << keyword
               << "' list: expected '[' integers separated by ',' ']'";
    }
  }
  return success(ok);
}

LogicalResult mlir::tessel::checkForVerifierHazards(ModuleOp module) {
  bool ok = true;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() != "linalg.broadcast")
      return;
    // A missing or mistyped attribute is the verifier's to report.
    auto dimensions = dyn_cast_or_null<DenseI64ArrayAttr>(
        op->getInherentAttr("dimensions").value_or(Attribute()));
    if (!dimensions)
      return;
    llvm::SmallDenseSet<int64_t> seen;
    for (int64_t dimension : dimensions.asArrayRef()) {
      if (seen.insert(dimension).second)
        continue;
      op->emitError() << "'linalg.broadcast' lists dimension " << dimension
                      << " twice in 'dimensions' " << dimensions
                      << ": each added dimension of the result is listed "
                         "once";
      ok = false;
      break;
    }
  });
  return success(ok);
}

OwningOpRef<ModuleOp>
mlir::tessel::parseInputSource(llvm::SourceMgr &sourceMgr,
                               MLIRContext *context) {
  if (failed(checkSourceForParserHazards(sourceMgr, context)))
    return nullptr;
  bool reported = false;
  OwningOpRef<ModuleOp> module;
  {
    // Notes which errors go by; the handlers below still print them.
    ScopedDiagnosticHandler watch(context, [&](Diagnostic &d) {
      reported |= d.getSeverity() == DiagnosticSeverity::Error;
      return failure();
    });
    // Verified below, once the hazards the verifier crashes on are out.
    module = parseSourceFile<ModuleOp>(
        sourceMgr, ParserConfig(context, /*verifyAfterParse=*/false));
  }
  if (!module && !reported) {
    const llvm::MemoryBuffer *buffer =
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
    emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(), 1,
                                  1))
        << "the MLIR parser rejected this input without saying where or why "
           "(an upstream custom parser that does not report its failures); "
           "check the syntax of the custom-form ops, e.g. by writing them in "
           "generic form";
  }
  if (module && (failed(checkForVerifierHazards(*module)) ||
                 failed(verify(*module))))
    return nullptr;
  return module;
}

//===- SourceGuards.cpp - source checks run before the MLIR parser --------===//

#include "tessel/Input/SourceGuards.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
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
    for (StringRef keyword : {"dimensions", "permutation"}) {
      StringRef rest = text.substr(i);
      if (!rest.consume_front(keyword) ||
          (!rest.empty() && isIdentifierChar(rest.front())))
        continue;
      rest = rest.ltrim();
      if (!rest.consume_front("=") || startsWithIntegerList(rest))
        continue;
      unsigned line, column;
      std::tie(line, column) = sourceMgr.getLineAndColumn(
          llvm::SMLoc::getFromPointer(text.data() + i));
      Location loc = FileLineColLoc::get(
          context, buffer->getBufferIdentifier(), line, column);
      emitError(loc) << "malformed '" << keyword
                     << "' list: expected '[' integers separated by ',' ']'";
      ok = false;
    }
  }
  return success(ok);
}

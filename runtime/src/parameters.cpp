#include "tessel/runtime/parameters.h"

#include "printable_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessel::rt {

namespace {

/// The safetensors library refuses headers above 100 MB; so does Tessel
/// (a corrupt length must not make it read gigabytes of "JSON").
constexpr uint64_t kMaxHeaderBytes = 100u << 20;

StatusOr<ElementType> elementTypeOf(const std::string &dtype) {
  static const std::pair<const char *, ElementType> kTypes[] = {
      {"F64", ElementType::f64}, {"F32", ElementType::f32}, {"F16", ElementType::f16},
      {"BF16", ElementType::bf16}, {"I64", ElementType::i64}, {"I32", ElementType::i32},
      {"I16", ElementType::i16}, {"I8", ElementType::i8}, {"BOOL", ElementType::i1}};
  for (const auto &[name, type] : kTypes)
    if (dtype == name)
      return type;
  return invalidArgument("dtype '" + printableText(dtype, 32) +
                         "' is not supported (supported: F64, F32, F16, BF16, I64, I32, I16, "
                         "I8, BOOL)");
}

/// Reads one header entry; `data` is the data section.
StatusOr<ParameterFile::Tensor> readEntry(const std::string &name, const nlohmann::json &entry,
                                          const uint8_t *data, uint64_t dataBytes) {
  if (!entry.is_object())
    return invalidArgument("is not an object");
  auto dtype = entry.find("dtype");
  auto shape = entry.find("shape");
  auto offsets = entry.find("data_offsets");
  if (dtype == entry.end() || !dtype->is_string())
    return invalidArgument("has no \"dtype\" string");
  if (shape == entry.end() || !shape->is_array())
    return invalidArgument("has no \"shape\" array");
  if (offsets == entry.end() || !offsets->is_array() || offsets->size() != 2 ||
      !(*offsets)[0].is_number_unsigned() || !(*offsets)[1].is_number_unsigned())
    return invalidArgument("has no \"data_offsets\" [begin, end] of two non-negative integers");
  ParameterFile::Tensor t;
  t.name = name;
  TESSEL_ASSIGN_OR_RETURN(t.type.elementType, elementTypeOf(dtype->get<std::string>()));
  for (const nlohmann::json &d : *shape) {
    if (!d.is_number_unsigned())
      return invalidArgument("has a shape entry that is not a non-negative integer");
    t.type.shape.push_back(static_cast<int64_t>(d.get<uint64_t>()));
  }
  TESSEL_RETURN_IF_ERROR(t.type.validate());
  uint64_t begin = (*offsets)[0].get<uint64_t>(), end = (*offsets)[1].get<uint64_t>();
  std::string range = "[" + std::to_string(begin) + ", " + std::to_string(end) + ")";
  if (begin > end)
    return invalidArgument("has data_offsets " + range + " that end before they begin");
  if (end - begin != t.type.byteSize())
    return invalidArgument("is " + t.type.toString() + " (" + std::to_string(t.type.byteSize()) +
                           " bytes) but its data_offsets " + range + " hold " +
                           std::to_string(end - begin) + " bytes");
  if (end > dataBytes)
    return dataLoss("needs bytes " + range + " of the data but the file has " +
                    std::to_string(dataBytes) + " (truncated?)");
  t.data = data + begin;
  return t;
}

} // namespace

StatusOr<std::shared_ptr<const ParameterFile>>
ParameterFile::fromBytes(const uint8_t *bytes, size_t size, const std::string &fileName) {
  std::string file = "parameters file '" + fileName + "'";
  if (size < 8)
    return dataLoss(file + ": " + std::to_string(size) +
                    " bytes, too short for a safetensors header (truncated?)");
  uint64_t headerBytes = 0;
  for (int i = 7; i >= 0; --i)
    headerBytes = headerBytes << 8 | bytes[i];
  if (headerBytes > kMaxHeaderBytes || headerBytes > size - 8)
    return dataLoss(file + ": the header is " + std::to_string(headerBytes) +
                    " bytes long but the file has " + std::to_string(size - 8) +
                    " after the length (truncated, or not a safetensors file?)");
  const char *text = reinterpret_cast<const char *>(bytes + 8);
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(text, text + headerBytes);
  } catch (const nlohmann::json::exception &e) {
    return dataLoss(file + ": the header is not valid JSON (" + printableText(e.what(), 200) +
                    ")");
  }
  if (!header.is_object())
    return dataLoss(file + ": the header is not a JSON object");
  std::shared_ptr<ParameterFile> pf(new ParameterFile());
  pf->name_ = fileName;
  const uint8_t *data = bytes + 8 + headerBytes;
  uint64_t dataBytes = size - 8 - headerBytes;
  for (const auto &[name, entry] : header.items()) {
    if (name == "__metadata__")
      continue;
    auto t = readEntry(name, entry, data, dataBytes);
    if (!t.ok())
      return Status(t.status().code(), file + ": tensor '" + printableText(name, 200) + "' " +
                                           t.status().message());
    pf->tensors_.push_back(std::move(t).value());
  }
  std::sort(pf->tensors_.begin(), pf->tensors_.end(),
            [](const Tensor &a, const Tensor &b) { return a.data < b.data; });
  return std::shared_ptr<const ParameterFile>(std::move(pf));
}

StatusOr<std::shared_ptr<const ParameterFile>> ParameterFile::open(const std::string &path) {
  std::string file = "parameters file '" + path + "'";
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return notFound("cannot open " + file + ": " + std::strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    int err = errno;
    ::close(fd);
    return invalidArgument(file + " is not a regular file" +
                           (err ? std::string(" (") + std::strerror(err) + ")" : ""));
  }
  size_t size = static_cast<size_t>(st.st_size);
  void *mapping = nullptr;
  if (size > 0) {
    mapping = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapping == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return resourceExhausted("cannot map " + file + ": " + std::strerror(err));
    }
  }
  ::close(fd);
  auto parsed = fromBytes(static_cast<const uint8_t *>(mapping), size, path);
  if (!parsed.ok()) {
    if (mapping)
      munmap(mapping, size);
    return parsed.status();
  }
  auto *pf = const_cast<ParameterFile *>(parsed->get());
  pf->mapping_ = mapping;
  pf->mappedBytes_ = size;
  return parsed;
}

ParameterFile::~ParameterFile() {
  if (mapping_)
    munmap(mapping_, mappedBytes_);
}

const ParameterFile::Tensor *ParameterFile::find(std::string_view tensorName) const {
  for (const Tensor &t : tensors_)
    if (t.name == tensorName)
      return &t;
  return nullptr;
}

} // namespace tessel::rt

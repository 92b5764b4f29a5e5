#include "runtime/hal/cpu/executable_library.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>

#include "runtime/hal/cpu/cpu_info.h"

namespace ember::hal::cpu {
namespace {

// Export names longer than this are not names but a runaway read.
constexpr size_t kMaxNameLength = 4096;

// Whether `text` is a NUL-terminated string in the image's readable memory.
bool IsImageString(const ElfModule& image, const char* text) {
  for (size_t i = 0; i <= kMaxNameLength; ++i) {
    if (!image.IsReadable(text + i, 1)) return false;
    if (text[i] == '\0') return true;
  }
  return false;
}

// Whether `count` elements of T at `table` are readable (always true without
// an image to check against).
template <typename T>
bool IsImageTable(const ElfModule* image, const T* table, uint64_t count) {
  if (image == nullptr) return true;
  return image->IsReadable(table, count * sizeof(T));
}

}  // namespace

Status ValidateLibraryV6(const LibraryHeader* const* query_result,
                         uint32_t executable_constant_count,
                         const ElfModule* image) {
  if (query_result == nullptr) {
    return FailedPreconditionError(
        "the executable library does not support version 6 (the query "
        "returned NULL)");
  }
  // The header pointer is the first field of the library.
  const LibraryV6* library = reinterpret_cast<const LibraryV6*>(query_result);
  if (!IsImageTable(image, library, 1)) {
    return InvalidArgumentError(
        "the library struct does not lie in the executable's image");
  }
  const LibraryHeader* header = library->header;
  if (header == nullptr || !IsImageTable(image, header, 1)) {
    return InvalidArgumentError(
        "the library header is NULL or outside the executable's image");
  }
  if (header->version != kExecutableLibraryVersion6) {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "the executable library is version %" PRIu32
                      "; Ember loads version %" PRIu32,
                      header->version, kExecutableLibraryVersion6);
  }
  if (header->sanitizer != 0) {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "the executable library was built with sanitizer kind "
                      "%" PRId32 "; Ember loads only unsanitized libraries",
                      header->sanitizer);
  }

  const LibraryImportTable& imports = library->imports;
  if (imports.count > 0 &&
      (imports.symbols == nullptr ||
       !IsImageTable(image, imports.symbols, imports.count))) {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "the library declares %" PRIu32
                      " imports but no readable symbol table",
                      imports.count);
  }

  const LibraryExportTable& exports = library->exports;
  if (exports.count > kMaxLibraryExports) {
    return MakeStatus(StatusCode::kOutOfRange,
                      "the library declares %" PRIu32
                      " exports; at most %" PRIu32 " are allowed",
                      exports.count, kMaxLibraryExports);
  }
  if (exports.count > 0) {
    if (exports.ptrs == nullptr ||
        !IsImageTable(image, exports.ptrs, exports.count)) {
      return FailedPreconditionError(
          "the library's export function table is NULL or outside the image");
    }
    if (exports.attrs == nullptr ||
        !IsImageTable(image, exports.attrs, exports.count)) {
      return FailedPreconditionError(
          "the library's export attribute table is NULL or outside the image");
    }
    if (exports.names != nullptr &&
        !IsImageTable(image, exports.names, exports.count)) {
      return InvalidArgumentError(
          "the library's export name table lies outside the image");
    }
  }
  for (uint32_t i = 0; i < exports.count; ++i) {
    DispatchFunction function = exports.ptrs[i];
    if (function == nullptr ||
        (image != nullptr &&
         !image->IsExecutable(reinterpret_cast<const void*>(function)))) {
      return MakeStatus(
          StatusCode::kFailedPrecondition,
          "export %" PRIu32 " has no entry point in the executable's code", i);
    }
    const DispatchAttrs& attrs = exports.attrs[i];
    if (attrs.constant_count > kMaxDispatchConstants) {
      return MakeStatus(StatusCode::kOutOfRange,
                        "export %" PRIu32 " uses %u constants; at most %" PRIu32
                        " are allowed",
                        i, unsigned{attrs.constant_count},
                        kMaxDispatchConstants);
    }
    if (attrs.binding_count > kMaxDispatchBindings) {
      return MakeStatus(StatusCode::kOutOfRange,
                        "export %" PRIu32 " uses %u bindings; at most %" PRIu32
                        " are allowed",
                        i, unsigned{attrs.binding_count}, kMaxDispatchBindings);
    }
    if (exports.names != nullptr && exports.names[i] != nullptr &&
        image != nullptr && !IsImageString(*image, exports.names[i])) {
      return MakeStatus(
          StatusCode::kInvalidArgument,
          "the name of export %" PRIu32 " is not a string in the image", i);
    }
  }
  if (library->constants.count != executable_constant_count) {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "the library expects %" PRIu32
                      " executable constants but %" PRIu32 " are provided",
                      library->constants.count, executable_constant_count);
  }
  return Status::Ok();
}

namespace {

// A library with its constants and the host's processor data in its
// environment (as IREE fills them: ukernels pick their code paths from these
// bits, so the same bits give the same results).
Status CheckConstantCount(std::span<const uint32_t> constants) {
  if (constants.size() > std::numeric_limits<uint32_t>::max()) {
    return InvalidArgumentError("too many executable constants");
  }
  return Status::Ok();
}

}  // namespace

LoadedLibrary::~LoadedLibrary() {
  // Unload the code only after nothing can call into it (the library owns
  // no threads; executables die after their last dispatch).
  if (system_handle_) dlclose(system_handle_);
}

Status LoadedLibrary::QueryAndValidate(void* query_address,
                                       uint32_t constant_count) {
  environment_.constants = constants_.data();
  const ProcessorData& processor = HostProcessorData();
  std::copy(processor.begin(), processor.end(), environment_.processor.data);
  auto query = reinterpret_cast<LibraryQueryFunction>(query_address);
  const LibraryHeader** result =
      query(kExecutableLibraryVersion6, &environment_);
  EMBER_RETURN_IF_ERROR(
      ValidateLibraryV6(result, constant_count, module_.get()),
      "validating the executable library");
  library_ = reinterpret_cast<const LibraryV6*>(result);

  // Required imports would be called through a NULL thunk.
  const LibraryImportTable& imports = library_->imports;
  for (uint32_t i = 0; i < imports.count; ++i) {
    const char* symbol = imports.symbols[i];
    if (symbol == nullptr || (module_ && !IsImageString(*module_, symbol))) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "library import %" PRIu32 " has no readable name", i);
    }
    if (symbol[0] != '?') {
      return MakeStatus(StatusCode::kUnimplemented,
                        "the library requires import '%s'; Ember provides no "
                        "executable imports",
                        symbol);
    }
  }
  return Status::Ok();
}

Result<std::unique_ptr<LoadedLibrary>> LoadedLibrary::Load(
    std::span<const uint8_t> elf, std::span<const uint32_t> constants) {
  EMBER_RETURN_IF_ERROR(CheckConstantCount(constants));
  std::unique_ptr<LoadedLibrary> loaded(new LoadedLibrary());
  loaded->constants_.assign(constants.begin(), constants.end());
  EMBER_ASSIGN_OR_RETURN(loaded->module_, ElfModule::Load(elf));
  EMBER_RETURN_IF_ERROR(loaded->module_->RunInitializers(),
                        "running the ELF initializers");
  EMBER_ASSIGN_OR_RETURN(void* query_address, loaded->module_->LookupSymbol(
                                                  kExecutableLibraryQueryName));
  if (!loaded->module_->IsExecutable(query_address)) {
    return InvalidArgumentError(
        "the library query symbol does not point at code");
  }
  EMBER_RETURN_IF_ERROR(loaded->QueryAndValidate(
      query_address, static_cast<uint32_t>(constants.size())));
  return loaded;
}

Result<std::unique_ptr<LoadedLibrary>> LoadedLibrary::LoadSystem(
    std::span<const uint8_t> shared_object,
    std::span<const uint32_t> constants) {
  EMBER_RETURN_IF_ERROR(CheckConstantCount(constants));
  std::unique_ptr<LoadedLibrary> loaded(new LoadedLibrary());
  loaded->constants_.assign(constants.begin(), constants.end());
  // A private, anonymous in-memory file: nothing lands on disk and no other
  // process can see or swap it.
  int fd = memfd_create("ember-executable", MFD_CLOEXEC);
  if (fd < 0) {
    return UnavailableError(std::string("memfd_create failed: ") +
                            std::strerror(errno));
  }
  size_t written = 0;
  while (written < shared_object.size()) {
    ssize_t n = write(fd, shared_object.data() + written,
                      shared_object.size() - written);
    if (n <= 0) {
      close(fd);
      return UnavailableError("writing the shared object to memory failed");
    }
    written += static_cast<size_t>(n);
  }
  char path[64];
  std::snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  loaded->system_handle_ = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  close(fd);  // the loader keeps its own mapping
  if (!loaded->system_handle_) {
    const char* error = dlerror();
    return InvalidArgumentError(std::string("cannot load the shared object: ") +
                                (error ? error : "unknown error"));
  }
  void* query_address =
      dlsym(loaded->system_handle_, kExecutableLibraryQueryName);
  if (!query_address) {
    return NotFoundError(std::string("the shared object exports no ") +
                         kExecutableLibraryQueryName);
  }
  EMBER_RETURN_IF_ERROR(loaded->QueryAndValidate(
      query_address, static_cast<uint32_t>(constants.size())));
  return loaded;
}

std::string_view LoadedLibrary::export_name(uint32_t ordinal) const {
  const char* const* names = library_->exports.names;
  if (names == nullptr || ordinal >= library_->exports.count ||
      names[ordinal] == nullptr) {
    return {};
  }
  return names[ordinal];
}

}  // namespace ember::hal::cpu

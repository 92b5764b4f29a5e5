// Python bindings of parameters: iree.runtime 3.11's io API (FileHandle,
// ParameterIndex, ParameterIndexEntry, ParameterProvider and
// create_io_parameters_module), over runtime/io and the io_parameters module
// (runtime/modules/io_parameters).
//
// Names, signatures, exception types and reprs follow iree.runtime's
// (runtime/bindings/python/io.cc): a core failure maps through
// status_utils.h, a bad splat pattern or a wrong entry kind is ValueError.
//
// Zero copy: add_buffer / FileHandle.wrap_memory keep the Python object's
// buffer (a Py_buffer on it) for as long as the index entry, a HAL buffer a
// program loaded from it, or anything else holds the file handle; the last
// holder may go on any thread, so the buffer is given back through
// python_owner.h. FileHandle exports its host memory through the buffer
// protocol (read-only unless the handle is writable), so file_view and
// host_allocation are views that keep the handle alive.
//
// Thread safety: indexes are filled with the GIL held; parsing a file and
// writing an archive run with the GIL released.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python/bindings/python_owner.h"
#include "python/bindings/status_utils.h"
#include "python/bindings/vm_bindings.h"
#include "runtime/io/file_handle.h"
#include "runtime/io/irpa_writer.h"
#include "runtime/io/parameter_index.h"
#include "runtime/modules/io_parameters/io_parameters_module.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {
namespace {

using modules::io_parameters::ParameterProvider;

struct PyFileHandle {
  Ref<io::FileHandle> handle;
};

struct PyParameterProvider {
  Ref<ParameterProvider> provider;
};

struct PyParameterIndex {
  Ref<io::ParameterIndex> index;
};

// One entry of an index, by position (entries never move or go away: an
// index only grows, and the entry holds the index).
struct PyParameterIndexEntry {
  Ref<io::ParameterIndex> index;
  size_t position = 0;
  const io::ParameterEntry& entry() const { return index->entry(position); }
};

// A file handle over a Python object's memory, holding a buffer view on it
// until the handle dies.
PyFileHandle WrapPythonMemory(nb::handle object, bool readable, bool writable) {
  auto held = std::make_unique<Py_buffer>();
  const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(object.ptr(), held.get(), flags) != 0) {
    throw nb::python_error();
  }
  std::span<uint8_t> bytes(static_cast<uint8_t*>(held->buf),
                           static_cast<size_t>(held->len));
  Py_buffer* raw = held.release();
  return PyFileHandle{io::FileHandle::WrapMemory(
      bytes, readable, writable, [raw] { ReleasePythonBuffer(raw); })};
}

int FileHandleGetBuffer(PyObject* exporter, Py_buffer* view, int flags) {
  if (!nb::inst_ready(exporter)) {
    view->obj = nullptr;
    PyErr_SetString(PyExc_BufferError, "FileHandle is not initialized");
    return -1;
  }
  const PyFileHandle& self = *nb::inst_ptr<PyFileHandle>(exporter);
  if (!self.handle || !self.handle->is_host_allocation()) {
    view->obj = nullptr;
    PyErr_SetString(PyExc_ValueError,
                    "FileHandle is not based on a host allocation and "
                    "cannot be mapped");
    return -1;
  }
  std::span<uint8_t> bytes = self.handle->bytes();
  return PyBuffer_FillInfo(view, exporter, bytes.data(),
                           static_cast<Py_ssize_t>(bytes.size()),
                           self.handle->writable() ? 0 : 1, flags);
}

PyType_Slot file_handle_slots[] = {
    {Py_bf_getbuffer, reinterpret_cast<void*>(&FileHandleGetBuffer)},
    {0, nullptr},
};

void AddFromFileHandle(PyParameterIndex& self, const std::string& key,
                       const PyFileHandle& file, uint64_t length,
                       uint64_t offset, std::optional<std::string> metadata) {
  io::ParameterEntry entry;
  entry.key = key;
  if (metadata) entry.metadata = std::move(*metadata);
  entry.length = length;
  entry.kind = io::ParameterEntry::Kind::kFile;
  entry.file = file.handle;
  entry.offset = offset;
  CheckStatus(self.index->Add(std::move(entry)),
              "Could not add parameter index entry");
}

void ParseFileHandle(PyParameterIndex& self, const PyFileHandle& file,
                     const std::string& format) {
  Status status;
  {
    nb::gil_scoped_release release;
    status = io::ParseParameterFile(format, file.handle, *self.index);
  }
  CheckStatus(status, "Could not parse parameter file index");
}

// The extension of the last path component, without the dot ("" if none),
// as the format name load() infers.
std::string PathExtension(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t name = slash == std::string::npos ? 0 : slash + 1;
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || dot < name) return {};
  return path.substr(dot + 1);
}

void LoadFile(PyParameterIndex& self, const std::string& file_path,
              std::optional<std::string> format, bool readable, bool writable,
              std::optional<bool> mmap_argument,
              std::optional<std::string> mode) {
  (void)readable;  // as iree.runtime: parameter files are opened for reading
  (void)writable;
  // iree.runtime 3.13's modes: mapped (the default, mmap=True), preloaded
  // (mmap=False), or mode="file_async", where entries refer to the file
  // handle itself (IREE streams them through the HAL; Ember reads them
  // from the handle's read-only mapping, synchronously).
  if (mode && *mode != "file_async") {
    throw nb::value_error(
        ("unsupported parameter file mode: " + *mode).c_str());
  }
  if (mode && mmap_argument) {
    throw nb::value_error("mode and mmap are mutually exclusive");
  }
  const bool file_backed = mode.has_value();
  const bool mmap = mmap_argument.value_or(true);
  if (!format) format = PathExtension(file_path);
  Result<Ref<io::FileHandle>> file = [&]() -> Result<Ref<io::FileHandle>> {
    nb::gil_scoped_release release;
    EMBER_ASSIGN_OR_RETURN(Ref<io::FileHandle> mapped,
                           io::FileHandle::Open(file_path, false));
    if (file_backed) return mapped;
    if (mmap) {
      // As iree.runtime: the mapping is presented as host memory (so entries
      // have file_view and FileHandle<host_allocation(...)> reprs); the
      // wrapper holds the mapping.
      return io::FileHandle::WrapMemory(
          mapped->bytes(), true, false,
          [mapped]() mutable { mapped = nullptr; });
    }
    // Preloaded: the bytes copied into memory of their own.
    auto copy = std::make_shared<std::vector<uint8_t>>(mapped->bytes().begin(),
                                                       mapped->bytes().end());
    return io::FileHandle::WrapMemory(std::span<uint8_t>(*copy), true, false,
                                      [copy]() mutable { copy.reset(); });
  }();
  if (!file.ok()) {
    ThrowStatus(file.status(), mmap ? "Mapping parameter file"
                                    : "Error opening parameter file (preload)");
  }
  ParseFileHandle(self, PyFileHandle{*file}, *format);
}

PyParameterIndexEntry EntryAt(const PyParameterIndex& self, size_t i) {
  if (i >= self.index->size()) {
    ThrowStatus(OutOfRangeError(
                    "entry " + std::to_string(i) + " out of range (index has " +
                    std::to_string(self.index->size()) + " entries)"),
                "Could not enumerate parameter index");
  }
  return PyParameterIndexEntry{self.index, i};
}

nb::bytes Bytes(const void* data, size_t size) {
  return nb::bytes(static_cast<const char*>(data), size);
}

const io::ParameterEntry& RequireFile(const PyParameterIndexEntry& self) {
  const io::ParameterEntry& entry = self.entry();
  if (entry.kind != io::ParameterEntry::Kind::kFile) {
    throw nb::value_error("Entry is not file storage based");
  }
  return entry;
}

VmModule CreateIoParametersModuleBinding(const VmInstance& instance,
                                         nb::args providers) {
  (void)instance;
  std::vector<Ref<ParameterProvider>> list;
  for (nb::handle provider : providers) {
    if (!nb::isinstance<PyParameterProvider>(provider)) {
      throw nb::type_error(
          "create_io_parameters_module takes ParameterProviders");
    }
    list.push_back(nb::cast<const PyParameterProvider&>(provider).provider);
  }
  return VmModule{
      Unwrap(modules::io_parameters::CreateIoParametersModule(std::move(list)),
             "Error creating io_parameters module"),
      nb::none()};
}

}  // namespace

void BindIo(nb::module_& m) {
  m.def("create_io_parameters_module", &CreateIoParametersModuleBinding,
        "instance"_a, "providers"_a,
        "An `io_parameters` module serving the given ParameterProviders (the "
        "first whose scope matches a program's request serves it); link it "
        "before the program's module.");

  nb::class_<PyFileHandle>(
      m, "FileHandle", nb::type_slots(file_handle_slots),
      "A file or memory that parameters live in. Exports its bytes through "
      "the buffer protocol when host memory backs it (read-only unless the "
      "handle is writable).")
      .def_static(
          "wrap_memory",
          [](nb::handle host_buffer, bool readable, bool writable) {
            return WrapPythonMemory(host_buffer, readable, writable);
          },
          "host_buffer"_a, "readable"_a = true, "writable"_a = false,
          "Wraps the memory of a C-contiguous Python buffer without a copy; "
          "the object stays held while the handle lives.")
      .def_static(
          "wrap_fd",
          [](int fd, bool readable, bool writable) {
            return PyFileHandle{
                Unwrap(io::FileHandle::WrapFd(fd, readable, writable),
                       "Could not wrap host fd into a file handle")};
          },
          "fd"_a, "readable"_a = true, "writable"_a = false,
          "A handle on an open file descriptor (the caller keeps owning it).")
      .def_prop_ro(
          "is_host_allocation",
          [](const PyFileHandle& self) {
            return self.handle->is_host_allocation();
          },
          "Whether host memory (a mapping or wrapped memory) backs the handle.")
      .def_prop_ro(
          "is_async", [](const PyFileHandle&) { return false; },
          "Whether the handle was opened for asynchronous I/O (iree.runtime "
          "3.12+): always False, as for iree.runtime's wrap_memory and "
          "wrap_fd handles; Ember reads files synchronously.")
      .def_prop_ro(
          "host_allocation",
          [](nb::handle self) {
            PyObject* view = PyMemoryView_FromObject(self.ptr());
            if (view == nullptr) throw nb::python_error();
            return nb::steal(view);
          },
          "A memoryview of the handle's host memory (ValueError when it has "
          "none).")
      .def_prop_ro(
          "is_fd",
          [](const PyFileHandle& self) {
            return !self.handle->is_host_allocation() && self.handle->fd() >= 0;
          },
          "Whether the handle is a file descriptor.")
      .def_prop_ro(
          "fd", [](const PyFileHandle& self) { return self.handle->fd(); },
          "The file descriptor of an fd handle.")
      .def("__repr__", [](nb::handle self) -> nb::object {
        const PyFileHandle& handle = nb::cast<const PyFileHandle&>(self);
        if (handle.handle->is_host_allocation()) {
          return nb::str("FileHandle<host_allocation({})>")
              .format(self.attr("host_allocation"));
        }
        if (handle.handle->fd() >= 0) {
          return nb::str("FileHandle<fd({})>").format(handle.handle->fd());
        }
        return nb::str("<FileHandle unknown>");
      });

  nb::class_<PyParameterProvider>(m, "ParameterProvider",
                                  "A scope and the ParameterIndex serving it "
                                  "(ParameterIndex.create_provider); passed to "
                                  "create_io_parameters_module.");

  nb::class_<PyParameterIndexEntry>(
      m, "ParameterIndexEntry",
      "One parameter of a ParameterIndex: a range of a file or a splat "
      "(a repeated pattern).")
      .def_prop_ro(
          "key",
          [](const PyParameterIndexEntry& self) { return self.entry().key; },
          "The parameter's name.")
      .def_prop_ro(
          "length",
          [](const PyParameterIndexEntry& self) { return self.entry().length; },
          "The parameter's length in bytes.")
      .def_prop_ro(
          "metadata",
          [](const PyParameterIndexEntry& self) {
            const std::string& metadata = self.entry().metadata;
            return Bytes(metadata.data(), metadata.size());
          },
          "The entry's metadata bytes (b'' when none).")
      .def_prop_ro(
          "is_file",
          [](const PyParameterIndexEntry& self) {
            return self.entry().kind == io::ParameterEntry::Kind::kFile;
          },
          "Whether the bytes are a range of a file.")
      .def_prop_ro(
          "is_splat",
          [](const PyParameterIndexEntry& self) {
            return self.entry().kind == io::ParameterEntry::Kind::kSplat;
          },
          "Whether the entry is a repeated pattern.")
      .def_prop_ro(
          "file_storage",
          [](const PyParameterIndexEntry& self) {
            const io::ParameterEntry& entry = RequireFile(self);
            return nb::make_tuple(PyFileHandle{entry.file}, entry.offset);
          },
          "(FileHandle, offset) of a file entry; ValueError for a splat.")
      .def_prop_ro(
          "file_view",
          [](nb::handle self) -> nb::object {
            const PyParameterIndexEntry& entry =
                nb::cast<const PyParameterIndexEntry&>(self);
            const io::ParameterEntry& file = RequireFile(entry);
            nb::object storage = self.attr("file_storage");
            nb::object view = storage[0].attr("host_allocation");
            nb::object begin = nb::int_(file.offset);
            nb::object end = begin + nb::int_(file.length);
            PyObject* slice = PySlice_New(begin.ptr(), end.ptr(), nullptr);
            if (slice == nullptr) throw nb::python_error();
            return view[nb::steal(slice)];  // a memoryview slice
          },
          "A memoryview of a file entry's bytes (no copy).")
      .def_prop_ro(
          "splat_pattern",
          [](const PyParameterIndexEntry& self) {
            const io::ParameterEntry& entry = self.entry();
            if (entry.kind != io::ParameterEntry::Kind::kSplat) {
              throw nb::value_error("Entry is not splat");
            }
            return Bytes(entry.pattern.data(), entry.pattern_length);
          },
          "The pattern of a splat entry; ValueError for a file entry.")
      .def("__repr__", [](nb::handle self) -> nb::object {
        const PyParameterIndexEntry& entry =
            nb::cast<const PyParameterIndexEntry&>(self);
        if (entry.entry().kind == io::ParameterEntry::Kind::kSplat) {
          return nb::str("<ParameterIndexEntry '{}' splat {}:{}>")
              .format(self.attr("key"), self.attr("splat_pattern"),
                      self.attr("length"));
        }
        // iree.runtime's file repr has no closing '>'; kept as is.
        nb::object storage = self.attr("file_storage");
        return nb::str("<ParameterIndexEntry '{}' {}:{}:{}")
            .format(self.attr("key"), storage[0], storage[1],
                    self.attr("length"));
      });

  nb::class_<PyParameterIndex>(
      m, "ParameterIndex",
      "Named parameters (file ranges and splats) that programs load through "
      "an io_parameters module.")
      .def(
          "__init__",
          [](PyParameterIndex* self) {
            new (self) PyParameterIndex{io::ParameterIndex::Create()};
          },
          "An empty index.")
      .def(
          "__len__",
          [](const PyParameterIndex& self) { return self.index->size(); },
          "The number of entries.")
      .def("__getitem__", &EntryAt, "i"_a,
           "The i-th entry (IndexError past the end).")
      .def(
          "items",
          [](const PyParameterIndex& self) {
            nb::list items;
            for (size_t i = 0; i < self.index->size(); ++i) {
              items.append(
                  nb::make_tuple(self.index->entry(i).key,
                                 PyParameterIndexEntry{self.index, i}));
            }
            return items;
          },
          "[(key, ParameterIndexEntry), ...] in index order.")
      .def(
          "__repr__",
          [](const PyParameterIndex& self) { return self.index->Dump(); },
          "The index as a table of its entries.")
      .def(
          "reserve",
          [](PyParameterIndex& self, size_t new_capacity) {
            CheckStatus(self.index->Reserve(new_capacity),
                        "Could not reserve capacity");
          },
          "new_capacity"_a, "Makes room for `new_capacity` entries.")
      .def(
          "add_splat",
          [](PyParameterIndex& self, std::string key, nb::handle pattern,
             uint64_t total_length, std::optional<std::string> metadata) {
            Py_buffer view;
            if (PyObject_GetBuffer(pattern.ptr(), &view, PyBUF_SIMPLE) != 0) {
              throw nb::python_error();
            }
            io::ParameterEntry entry;
            const size_t size = static_cast<size_t>(view.len);
            if (size > io::kMaxSplatPatternLength) {
              PyBuffer_Release(&view);
              throw nb::value_error("pattern must be limited to 16 bytes");
            }
            std::memcpy(entry.pattern.data(), view.buf, size);
            PyBuffer_Release(&view);
            entry.pattern_length = static_cast<uint8_t>(size);
            entry.key = std::move(key);
            if (metadata) entry.metadata = std::move(*metadata);
            entry.length = total_length;
            entry.kind = io::ParameterEntry::Kind::kSplat;
            CheckStatus(self.index->Add(std::move(entry)),
                        "Could not add parameter index entry");
          },
          "key"_a, "pattern"_a, "total_length"_a,
          "metadata"_a.none() = nb::none(),
          "Adds `key`: `total_length` bytes of `pattern` (a buffer of at most "
          "16 bytes) repeated.")
      .def("add_from_file_handle", &AddFromFileHandle, "key"_a, "file_handle"_a,
           "length"_a, "offset"_a = 0, "metadata"_a.none() = nb::none(),
           "Adds `key`: `length` bytes at `offset` of `file_handle`.")
      .def(
          "add_buffer",
          [](PyParameterIndex& self, const std::string& key, nb::handle buffer,
             bool readable, bool writable,
             std::optional<std::string> metadata) {
            PyFileHandle file = WrapPythonMemory(buffer, readable, writable);
            AddFromFileHandle(self, key, file, file.handle->length(), 0,
                              std::move(metadata));
          },
          "key"_a, "buffer"_a, "readable"_a = true, "writable"_a = false,
          "metadata"_a.none() = nb::none(),
          "Adds `key` over the memory of a Python buffer, without a copy; "
          "the object stays held while the index (or a buffer loaded from "
          "it) uses it.")
      .def("load_from_file_handle", &ParseFileHandle, "file_handle"_a,
           "format"_a,
           "Adds the entries of a parameter file (format 'irpa', 'gguf' or "
           "'safetensors') held by `file_handle`.")
      .def("load", &LoadFile, "file_path"_a, "format"_a.none() = nb::none(),
           "readable"_a = true, "writable"_a = false,
           "mmap"_a.none() = nb::none(), nb::kw_only(),
           "mode"_a.none() = nb::none(),
           "Adds the entries of a parameter file, its format from the "
           "extension unless given: mapped (the default, mmap=True, no "
           "copy), read into memory (mmap=False), or referring to the file "
           "handle itself (mode=\"file_async\", iree.runtime 3.13's "
           "streaming mode; Ember reads it synchronously). `mmap` and `mode` "
           "are mutually exclusive (ValueError).")
      .def(
          "create_provider",
          [](const PyParameterIndex& self, std::string scope,
             std::optional<size_t> max_concurrent_operations) {
            (void)max_concurrent_operations;  // operations run in order
            return PyParameterProvider{
                ParameterProvider::Create(std::move(scope), self.index)};
          },
          "scope"_a = std::string(),
          "max_concurrent_operations"_a.none() = nb::none(),
          "A ParameterProvider serving this index under `scope`.")
      .def(
          "create_archive_file",
          [](const PyParameterIndex& self, const std::string& file_path,
             uint64_t file_offset, PyParameterIndex* target_index) {
            PyParameterIndex target =
                target_index != nullptr
                    ? *target_index
                    : PyParameterIndex{io::ParameterIndex::Create()};
            Status status;
            {
              nb::gil_scoped_release release;
              status = io::WriteIrpaArchive(*self.index, file_path, file_offset,
                                            *target.index);
            }
            CheckStatus(status, "Error building parameter archive");
            return target;
          },
          "file_path"_a, "file_offset"_a = 0,
          "target_index"_a.none() = nb::none(),
          "Writes the entries to an IRPA archive at `file_path` (from "
          "`file_offset`) and returns an index of the archive's entries "
          "(`target_index` when given).");
}

}  // namespace ember::python

// Python bindings of the VM layer: VmInstance, VmModule, VmFunction, Linkage.
//
// Names, signatures and reprs follow iree.runtime 3.11 so code written for it
// runs unchanged. Module loading releases the GIL while the file is verified.
// Memory that Python owns (wrap_buffer, from_buffer) is held through a
// Py_buffer export until the last user of the module lets go; the release
// runs under the GIL whichever thread drops the last reference.
//
// A VmInstance owns a frozen vm::Instance; a VmModule is a vm::Module, and
// loading a bytecode file makes its vm::bytecode::BytecodeModule against the
// instance (vm_bindings.h).
#include "python/bindings/vm_bindings.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>
#include <string>

#include "python/bindings/status_utils.h"
#include "runtime/base/byte_storage.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/vm/bytecode/module_dump.h"
#include "runtime/vm/bytecode/module_file.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {

namespace {

// Holds a Python buffer export for the life of a ByteStorage.
struct PythonBufferOwner {
  Py_buffer view{};
  bool has_view = false;
  nb::object destroy_callback;
  nb::object close_target;  // object whose close() runs on release, or None
};

void ReleasePythonOwner(PythonBufferOwner* owner) {
  if (!Py_IsInitialized()) return;  // interpreter gone: nothing left to free
  nb::gil_scoped_acquire gil;
  // Keep any exception already being raised on this thread intact.
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  if (owner->has_view) PyBuffer_Release(&owner->view);
  auto call = [](const nb::object& fn, const char* what) {
    if (!fn.is_valid() || fn.is_none()) return;
    PyObject* result = PyObject_CallNoArgs(fn.ptr());
    if (!result) {
      PyErr_WriteUnraisable(fn.ptr());
    } else {
      Py_DECREF(result);
    }
    (void)what;
  };
  if (owner->close_target.is_valid() && !owner->close_target.is_none()) {
    nb::object close = nb::getattr(owner->close_target, "close", nb::none());
    call(close, "close");
  }
  call(owner->destroy_callback, "destroy_callback");
  delete owner;
  PyErr_Restore(type, value, traceback);
}

// A read-only memoryview over storage Ember owns, keeping it alive.
nb::object MemoryViewOf(std::shared_ptr<const ByteStorage> storage) {
  auto* keep = new std::shared_ptr<const ByteStorage>(storage);
  nb::capsule owner(keep, [](void* p) noexcept {
    delete static_cast<std::shared_ptr<const ByteStorage>*>(p);
  });
  size_t shape[1] = {storage->size()};
  nb::ndarray<nb::numpy, const uint8_t, nb::ndim<1>> array(storage->data(), 1,
                                                           shape, owner);
  nb::object numpy_array = nb::cast(array);
  return nb::steal(PyMemoryView_FromObject(numpy_array.ptr()));
}

VmModule LoadStorage(VmInstance* instance,
                     std::shared_ptr<const ByteStorage> storage,
                     nb::object blob) {
  Result<std::shared_ptr<vm::bytecode::BytecodeModule>> loaded =
      InternalError("not loaded");
  {
    nb::gil_scoped_release release;
    loaded = [&]() -> Result<std::shared_ptr<vm::bytecode::BytecodeModule>> {
      EMBER_ASSIGN_OR_RETURN(std::shared_ptr<const bytecode::ModuleFile> file,
                             bytecode::ModuleFile::Load(std::move(storage)));
      return vm::bytecode::BytecodeModule::Create(instance->instance,
                                                  std::move(file));
    }();
  }
  std::shared_ptr<vm::bytecode::BytecodeModule> bytecode_module =
      Unwrap(std::move(loaded), "cannot load VmModule");
  VmModule module;
  module.blob =
      blob.is_valid() ? blob : MemoryViewOf(bytecode_module->file().storage());
  module.module = std::move(bytecode_module);
  return module;
}

VmModule CopyBuffer(VmInstance* instance, nb::handle buffer) {
  Py_buffer view;
  if (PyObject_GetBuffer(buffer.ptr(), &view, PyBUF_SIMPLE) != 0) {
    throw nb::python_error();
  }
  auto storage = ByteStorage::CopyOf(
      {static_cast<const uint8_t*>(view.buf), static_cast<size_t>(view.len)});
  PyBuffer_Release(&view);
  return LoadStorage(instance, Unwrap(std::move(storage)), nb::object());
}

VmModule WrapBuffer(VmInstance* instance, nb::object buffer,
                    nb::object destroy_callback, bool close_buffer) {
  auto* owner = new PythonBufferOwner();
  if (PyObject_GetBuffer(buffer.ptr(), &owner->view, PyBUF_SIMPLE) != 0) {
    delete owner;
    throw nb::python_error();
  }
  owner->has_view = true;
  const void* data = owner->view.buf;
  size_t size = static_cast<size_t>(owner->view.len);
  if (reinterpret_cast<uintptr_t>(data) % kStorageAlignment != 0) {
    // Nothing was wrapped: give the export back, and do not run the
    // callbacks of a module that never existed.
    PyBuffer_Release(&owner->view);
    delete owner;
    throw nb::value_error(
        ("VmModule.wrap_buffer received an unaligned buffer at " +
         std::to_string(reinterpret_cast<uintptr_t>(data)) +
         "; expected alignment 64 (use copy_buffer or mmap)")
            .c_str());
  }
  auto storage = Unwrap(
      ByteStorage::WrapExternal({static_cast<const uint8_t*>(data), size},
                                [owner] { ReleasePythonOwner(owner); }));
  VmModule module = LoadStorage(instance, std::move(storage), buffer);
  // Only a module that exists gets its callbacks (as in iree.runtime): a
  // failed load releases the buffer export and nothing else.
  owner->destroy_callback = destroy_callback;
  if (close_buffer) owner->close_target = buffer;
  return module;
}

VmModule FromBuffer(VmInstance* instance, nb::object buffer,
                    bool warn_if_copy) {
  Py_buffer view;
  if (PyObject_GetBuffer(buffer.ptr(), &view, PyBUF_SIMPLE) != 0) {
    throw nb::python_error();
  }
  bool aligned = reinterpret_cast<uintptr_t>(view.buf) % kStorageAlignment == 0;
  PyBuffer_Release(&view);
  if (aligned) return WrapBuffer(instance, buffer, nb::none(), false);
  if (warn_if_copy) {
    if (PyErr_WarnEx(PyExc_UserWarning,
                     "Making copy of unaligned VmModule buffer. It is "
                     "recommended to make this deterministic by calling "
                     "`copy_buffer` to always make a copy or `mmap` to "
                     "efficiently load from a file. This warning can be "
                     "silenced by adding `warn_if_copy=False` to "
                     "`from_buffer`",
                     1) != 0) {
      throw nb::python_error();
    }
  }
  return CopyBuffer(instance, buffer);
}

VmModule MMap(VmInstance* instance, const std::string& path,
              nb::object destroy_callback) {
  Result<std::shared_ptr<const ByteStorage>> mapping =
      InternalError("not mapped");
  {
    nb::gil_scoped_release release;
    mapping = ByteStorage::MapFile(path);
  }
  if (!mapping.ok()) {
    // As iree.runtime, which opens the file with Python's open(): a file
    // that cannot be opened raises that OSError -- FileNotFoundError,
    // IsADirectoryError, PermissionError, with errno, filename and strerror
    // set, which is what callers inspect. Opening it again here gives
    // exactly Python's exception; a file that opens but does not map keeps
    // the core's error.
    nb::module_::import_("io").attr("open")(path, "rb").attr("close")();
  }
  std::shared_ptr<const ByteStorage> mapped = Unwrap(std::move(mapping));
  if (destroy_callback.is_none()) {
    return LoadStorage(instance, mapped, nb::object());
  }
  // Compose: the wrapper drops the mapping, then runs the user's callback.
  auto* owner = new PythonBufferOwner();
  auto storage = Unwrap(
      ByteStorage::WrapExternal(mapped->span(), [owner, mapped]() mutable {
        mapped.reset();
        ReleasePythonOwner(owner);
      }));
  VmModule module = LoadStorage(instance, std::move(storage), nb::object());
  owner->destroy_callback = destroy_callback;  // only once the module exists
  return module;
}

bool IsExport(Linkage linkage) {
  return linkage == Linkage::kExport || linkage == Linkage::kExportOptional;
}
bool IsImport(Linkage linkage) {
  return linkage == Linkage::kImport || linkage == Linkage::kImportOptional;
}

// A bytecode module's file, or null for another kind.
const bytecode::ModuleFile* FileOf(const vm::Module& module) {
  auto* bytecode_module =
      dynamic_cast<const vm::bytecode::BytecodeModule*>(&module);
  return bytecode_module ? &bytecode_module->file() : nullptr;
}

std::string_view FunctionName(const VmFunction& function) {
  if (IsExport(function.linkage)) {
    return function.module->export_info(function.ordinal).name;
  }
  if (IsImport(function.linkage)) {
    return function.module->import_info(function.ordinal).full_name;
  }
  const bytecode::ModuleFile* file = FileOf(*function.module);
  return file ? file->FunctionDebugName(function.ordinal) : std::string_view();
}

std::string_view CallingConventionOf(const VmFunction& function) {
  if (IsExport(function.linkage)) {
    return function.module->export_info(function.ordinal).calling_convention;
  }
  if (IsImport(function.linkage)) {
    return function.module->import_info(function.ordinal).calling_convention;
  }
  const bytecode::ModuleFile* file = FileOf(*function.module);
  return file ? file->def()
                    .function_signatures[function.ordinal]
                    .calling_convention
              : std::string_view();
}

nb::str Str(std::string_view text) {
  // Module strings are untrusted bytes; decode leniently so a bad byte can
  // never make a property raise.
  return nb::steal<nb::str>(PyUnicode_DecodeUTF8(
      text.data(), static_cast<Py_ssize_t>(text.size()), "replace"));
}

nb::dict Reflection(const VmFunction& function) {
  nb::dict dict;
  if (IsExport(function.linkage)) {
    for (const vm::ReflectionAttr& attr :
         function.module->export_info(function.ordinal).attrs) {
      dict[Str(attr.key)] = Str(attr.value);
    }
    return dict;
  }
  // The Module interface carries no import or internal attributes; a
  // bytecode file does.
  const bytecode::ModuleFile* file = FileOf(*function.module);
  if (file == nullptr) return dict;
  const bytecode::ModuleDef& def = file->def();
  const bytecode::FunctionSignatureDef& signature =
      IsImport(function.linkage)
          ? def.imported_functions[function.ordinal].signature
          : def.function_signatures[function.ordinal];
  for (const bytecode::AttrDef& attr : signature.attrs) {
    dict[Str(attr.key)] = Str(attr.value);
  }
  return dict;
}

std::optional<VmFunction> LookupFunction(VmModule& module,
                                         const std::string& name,
                                         Linkage linkage) {
  if (name.empty()) {
    // As iree.runtime: an empty name is a caller error, not "not found".
    CheckStatus(InvalidArgumentError("function name required for query"),
                "cannot look up function");
  }
  vm::Module& target = *module.module;
  switch (linkage) {
    case Linkage::kExport:
    case Linkage::kExportOptional: {
      std::optional<vm::Function> found = target.LookupExport(name);
      if (!found) return std::nullopt;
      return VmFunction{module.owner_for_functions(), linkage, found->ordinal};
    }
    case Linkage::kImport:
    case Linkage::kImportOptional:
      for (size_t i = 0; i < target.import_count(); ++i) {
        const vm::ImportInfo import = target.import_info(i);
        if (import.full_name == name) {
          Linkage actual = import.optional ? Linkage::kImportOptional : linkage;
          return VmFunction{module.owner_for_functions(), actual,
                            static_cast<uint32_t>(i)};
        }
      }
      return std::nullopt;
    case Linkage::kInternal:
      // As in IREE, internal functions are not found by name.
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

void BindVm(nb::module_& m) {
  nb::enum_<Linkage>(m, "Linkage",
                     "How a function is linked in its module, as "
                     "VmModule.lookup_function takes it and VmFunction.linkage "
                     "reports it: internal, imported or exported (imports and "
                     "exports optional or not).")
      .value("INTERNAL", Linkage::kInternal)
      .value("IMPORT", Linkage::kImport)
      .value("IMPORT_OPTIONAL", Linkage::kImportOptional)
      .value("EXPORT", Linkage::kExport)
      .value("EXPORT_OPTIONAL", Linkage::kExportOptional);

  nb::class_<VmInstance>(
      m, "VmInstance",
      "The VM instance that modules are loaded against and contexts are "
      "created in, with the hal module's types registered. One per process "
      "is usual; threads share it freely.")
      .def("__init__", [](VmInstance* self) {
        std::shared_ptr<vm::Instance> instance = vm::Instance::Create();
        // Programs name the hal module's ref types; they must be registered
        // before the instance is frozen.
        CheckStatus(modules::hal::RegisterHalTypes(*instance),
                    "cannot create VmInstance");
        instance->Freeze();
        new (self) VmInstance{std::move(instance)};
      });

  nb::class_<VmFunction>(
      m, "VmFunction",
      "A function of a VmModule (an export, an import or an internal "
      "function), as VmModule.lookup_function returns it; "
      "VmContext.invoke calls an exported one.")
      .def_prop_ro(
          "linkage",
          [](const VmFunction& f) { return static_cast<int>(f.linkage); },
          "The function's linkage as an int (a Linkage value).")
      .def_prop_ro(
          "ordinal", [](const VmFunction& f) { return f.ordinal; },
          "The function's index among the module's functions of its kind "
          "(exports, imports or internal functions).")
      .def_prop_ro(
          "name", [](const VmFunction& f) { return Str(FunctionName(f)); },
          "The export's name, an import's full name "
          "(module.function), or an internal function's debug name "
          "(empty when the module has none).")
      .def_prop_ro(
          "module_name",
          [](const VmFunction& f) { return Str(f.module->name()); },
          "The name of the module the function belongs to.")
      .def_prop_ro("reflection", &Reflection,
                   "The function's reflection attributes as a dict of str to "
                   "str (e.g. iree.abi.declaration); empty when it has none.")
      .def("__repr__", [](const VmFunction& f) {
        std::string repr = "<VmFunction ";
        repr += nb::cast<std::string>(Str(FunctionName(f)));
        repr += "(";
        repr += nb::cast<std::string>(Str(CallingConventionOf(f)));
        repr += "), reflection = ";
        repr += nb::cast<std::string>(nb::repr(Reflection(f)));
        repr += ">";
        return repr;
      });

  nb::class_<VmModule>(
      m, "VmModule",
      "A loaded module: a bytecode module (.vmfb) made by mmap, copy_buffer, "
      "wrap_buffer or from_buffer, or a native one such as "
      "create_hal_module's. Loading verifies the file with the GIL released "
      "and raises (ValueError, RuntimeError...) for a malformed one.")
      .def_static("copy_buffer", &CopyBuffer, "instance"_a, "buffer"_a,
                  "Copies `buffer` into 64-byte-aligned memory and loads it.")
      .def_static("wrap_buffer", &WrapBuffer, "instance"_a, "buffer"_a,
                  "destroy_callback"_a = nb::none(), "close_buffer"_a = false,
                  "Loads a 64-byte-aligned buffer in place. The buffer must "
                  "not change while the module lives; `destroy_callback` runs "
                  "when the module is freed.")
      .def_static("from_buffer", &FromBuffer, "instance"_a, "buffer"_a,
                  "warn_if_copy"_a = true,
                  "Wraps an aligned buffer in place, or copies an unaligned "
                  "one (with a UserWarning unless warn_if_copy=False).")
      .def_static("from_flatbuffer", &FromBuffer, "instance"_a, "buffer"_a,
                  "warn_if_copy"_a = true, "Alias of from_buffer.")
      .def_static("mmap", &MMap, "instance"_a, "filepath"_a,
                  "destroy_callback"_a = nb::none(),
                  "Maps a module file read-only and loads it in place.")
      .def_static(
          "resolve_module_dependency",
          [](VmInstance*, const std::string& name,
             uint32_t /*minimum_version*/) -> VmModule {
            // iree.runtime's binding resolves through IREE's tooling
            // resolver, which has no modules registered in the Python
            // package, so every name fails there (NOT_FOUND, ValueError);
            // Ember makes its native modules only from what they need (a
            // device, parameter providers).
            ThrowStatus(
                Status(StatusCode::kNotFound,
                       "required module '" + name +
                           "' cannot be made by name; create it "
                           "(create_hal_module, "
                           "create_io_parameters_module) and register it"),
                "Error resolving module dependency");
          },
          "instance"_a, "name"_a, "minimum_version"_a,
          "The module a program depends on, made by name: no module can be "
          "(ValueError), as in iree.runtime, whose resolver has none "
          "either; create_hal_module and create_io_parameters_module make "
          "them from a device and parameter providers.")
      .def_prop_ro(
          "name", [](const VmModule& self) { return Str(self.module->name()); },
          "The module's name (\"module\" for most programs iree-compile "
          "makes, \"hal\" for the hal module).")
      .def_prop_ro(
          "version",
          [](const VmModule& self) { return self.module->version(); },
          "The module's version number, as the module declares it.")
      .def_prop_ro(
          "function_names",
          [](const VmModule& self) {
            nb::list names;
            std::string_view previous;
            for (size_t i = 0; i < self.module->export_count(); ++i) {
              // A name exported under several cconvs (the hal module's
              // dispatch for 3.11 and for 3.12+ programs, listed next to
              // each other) is listed once, as iree.runtime lists it.
              std::string_view name = self.module->export_info(i).name;
              if (i > 0 && name == previous) continue;
              names.append(Str(name));
              previous = name;
            }
            return names;
          },
          "The names of the module's exported functions, in export "
          "order (each once).")
      .def_prop_ro(
          "stashed_flatbuffer_blob",
          [](const VmModule& self) { return self.blob; },
          "The bytes the module was loaded from: the Python buffer "
          "that wrap_buffer (or from_buffer, without a copy) uses "
          "in place, else a read-only memoryview of the module's "
          "own copy or mapping; None for a native module.")
      .def("lookup_function", &LookupFunction, "name"_a,
           "linkage"_a = Linkage::kExport,
           "The function named `name` with `linkage` (an export by default) "
           "as a VmFunction, or None when there is none. Imports are found "
           "by their full name, internal functions never; an empty name "
           "raises ValueError.")
      .def(
          "dump",
          [](const VmModule& self, bool json, bool verbose) {
            const bytecode::ModuleFile* file = FileOf(*self.module);
            if (file == nullptr) {
              throw nb::type_error(
                  ("module '" + std::string(self.module->name()) +
                   "' is not a bytecode module; only those can be dumped")
                      .c_str());
            }
            if (json) return bytecode::DumpModuleJson(*file);
            return bytecode::DumpModuleText(*file, {verbose});
          },
          "json"_a = false, "verbose"_a = false,
          "The module's structure as text (or JSON), as ember-dump-module "
          "prints it.")
      .def("__repr__", [](const VmModule& self) {
        std::string repr = "<VmModule ";
        repr += nb::cast<std::string>(Str(self.module->name()));
        repr += " : [";
        for (size_t i = 0; i < self.module->export_count(); ++i) {
          if (i) repr += ", ";
          repr += nb::cast<std::string>(Str(self.module->export_info(i).name));
        }
        repr += "]>";
        return repr;
      });
}

}  // namespace ember::python

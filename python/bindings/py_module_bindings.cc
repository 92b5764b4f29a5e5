// PyModuleInterface: a VM module whose exported functions are Python
// callables, as iree.runtime 3.11's (runtime/bindings/python/py_module.cc).
//
//   iface = PyModuleInterface("mymod", ctor)
//   iface.export("add", "0ii_i", lambda state, a, b: a + b)
//   module = iface.create()          # a VmModule, linkable in any context
//
// `ctor(iface)` runs once per context the module is registered in; what it
// returns is that context's module state and the first argument of every
// export call. A compiled program that imports `mymod.add` calls the Python
// function, and so do VmContext.invoke and FunctionInvoker.
//
// Lifecycle (upstream's): an interface is mutable until create(), which may
// run once; it is `initialized` from then on, and `destroyed` once no
// VmModule and no context holds the module it made. A VmFunction keeps only
// the module's C++ core (names, cconvs), not its Python objects, so a
// function object left lying around does not keep the callables alive --
// upstream's holds no reference at all (and dangles); Ember's refuses calls
// cleanly, as no context can hold the module any more.
//
// Conversions, upstream's: arguments i/I become Python ints, f/F floats, r a
// VmRef (None-like null VmRef for a null ref; deref it to the wrapper type).
// A function with one result returns the value itself, with several a
// sequence of exactly that many; with none its return value is ignored. i/I
// results must be ints in range (a float is refused), f/F anything float()
// accepts, r a VmRef (or any object with the ref protocol: an Ember
// extension; upstream takes only VmRef) and never None. A wrong result
// fails the call with an error naming module.function and the result index.
// cconvs are "0<args>_<results>" over i I f F r with "v" or nothing for an
// empty side ("0ii" is "0ii_v", as in IREE); variadic spans are refused
// (ValueError, as upstream), and the module declares no imports.
//
// Errors: an exception raised by the ctor or a function fails the VM call
// with an UNKNOWN status carrying the exception's type, message and
// traceback text, which reaches the caller as RuntimeError (upstream's
// type), e.g. "... 'mymod.add' raised ValueError: bad\nTraceback ...".
//
// The GIL. Calls into the VM run with the GIL released, so the module takes
// it (PyGILState_Ensure) only around the ctor and each callback; a caller
// that still holds it just re-enters. A context's mutex may be held while a
// callback waits for the GIL; that cannot deadlock because no thread takes
// that mutex while holding the GIL (vm_context_bindings.cc).
//
// Ownership. The module keeps its own strong references to the interface
// object, the ctor and the callables, so it works whatever happens to the
// interface; a state keeps one on its Python object. Both can be dropped on
// a thread without the GIL (a context freed from a worker), so they go
// through ReleasePythonOwned (python_owner.h): now when the GIL is held,
// otherwise queued for the next thread that has it. The interface object
// takes part in cyclic GC (tp_traverse/tp_clear over ctor and callables), so
// `iface.export("f", ..., lambda s: iface)` is collectable once no module
// made from it is alive -- while one is, the module's reference keeps the
// interface reachable, as upstream's retained self reference does.
//
// Thread safety: the Module is immutable after create() and may run in any
// number of contexts on any threads at once; each context has its own state
// and each callback holds the GIL, so Python code is never entered twice at
// once by the module itself.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "python/bindings/python_owner.h"
#include "python/bindings/status_utils.h"
#include "python/bindings/vm_bindings.h"
#include "python/bindings/vm_value_bindings.h"
#include "runtime/base/status.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/list.h"
#include "runtime/vm/module.h"
#include "runtime/vm/ref.h"
#include "runtime/vm/value.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {
namespace {

// ---- Python references owned from C++ ---------------------------------------

// Strong references to Python objects, dropped through ReleasePythonOwned.
struct PythonRefs {
  std::vector<PyObject*> objects;
};

void ReleaseRefs(void* owner) {
  auto* refs = static_cast<PythonRefs*>(owner);
  for (PyObject* object : refs->objects) Py_XDECREF(object);
  delete refs;
}

void ReleaseObject(void* owner) { Py_XDECREF(static_cast<PyObject*>(owner)); }

// Whether this thread holds the GIL of a live interpreter, finalizing or
// not. Py_IsInitialized() is already false while the interpreter finalizes
// (when module teardown frees contexts), and PyGILState_Check() answers yes
// once it is gone, so neither alone will do.
bool ThisThreadHoldsGil() {
  PyThreadState* mine = PyGILState_GetThisThreadState();
#if PY_VERSION_HEX >= 0x030D0000
  PyThreadState* holder = PyThreadState_GetUnchecked();
#else
  PyThreadState* holder = _PyThreadState_UncheckedGet();
#endif
  return mine != nullptr && mine == holder;
}

// ReleasePythonOwned, except that a thread holding the GIL releases now even
// while the interpreter finalizes: skipping the release then would leak the
// interface and its callables (nanobind reports them at exit).
void Release(void (*release)(void* owner), void* owner) {
  if (ThisThreadHoldsGil()) {
    release(owner);
  } else {
    ReleasePythonOwned(release, owner);
  }
}

// ---- formatting Python errors
// -------------------------------------------------

std::string StrOf(PyObject* object) {
  if (object == nullptr) return "<null>";
  PyObject* text = PyObject_Str(object);
  if (text == nullptr) {
    PyErr_Clear();
    return "<unprintable " + std::string(Py_TYPE(object)->tp_name) + ">";
  }
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text, &size);
  std::string result;
  if (data == nullptr) {
    PyErr_Clear();
    result = "<undecodable text>";
  } else {
    result.assign(data, static_cast<size_t>(size));
  }
  Py_DECREF(text);
  return result;
}

// "Type: message\n<traceback>" of the pending Python error, which is
// cleared. Called with the GIL held and an error set.
std::string TakePythonError() {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback != nullptr && value != nullptr) {
    PyException_SetTraceback(value, traceback);
  }
  std::string text = type ? reinterpret_cast<PyTypeObject*>(type)->tp_name
                          : "<unknown exception>";
  std::string message = StrOf(value);
  if (!message.empty()) text += ": " + message;
  // The traceback as Python prints it, when the traceback module can say.
  if (traceback != nullptr) {
    PyObject* module = PyImport_ImportModule("traceback");
    PyObject* lines = module
                          ? PyObject_CallMethod(module, "format_exception",
                                                "OOO", type, value, traceback)
                          : nullptr;
    if (lines != nullptr) {
      PyObject* empty = PyUnicode_FromString("");
      PyObject* joined = empty ? PyUnicode_Join(empty, lines) : nullptr;
      if (joined != nullptr) text += "\n" + StrOf(joined);
      Py_XDECREF(joined);
      Py_XDECREF(empty);
    }
    Py_XDECREF(lines);
    Py_XDECREF(module);
    PyErr_Clear();
  }
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  return text;
}

// ---- calling conventions
// ------------------------------------------------------

// "0ii" -> "0ii_v", "0_i" -> "0v_i": IREE reads a missing or empty side as
// no values; Ember's linker compares cconvs as strings, so the module
// declares the spelling compiled programs use.
std::string CanonicalCconv(std::string_view cconv) {
  if (cconv.empty() || cconv[0] != '0') return std::string(cconv);
  std::string_view body = cconv.substr(1);
  size_t split = body.find('_');
  std::string_view arguments = body.substr(0, split);
  std::string_view results = split == std::string_view::npos
                                 ? std::string_view()
                                 : body.substr(split + 1);
  std::string canonical = "0";
  canonical += arguments.empty() ? std::string_view("v") : arguments;
  canonical += '_';
  canonical += results.empty() ? std::string_view("v") : results;
  return canonical;
}

// ---- the module
// ----------------------------------------------------------------

// One export, frozen at create().
struct PyExport {
  std::string name;
  std::string cconv;             // canonical
  vm::CallingConvention parsed;  // views into `cconv`
  PyObject* callable = nullptr;  // borrowed from the module's PythonRefs
};

class PyModuleState final : public vm::ModuleState {
 public:
  explicit PyModuleState(PyObject* object) : object_(object) {}
  ~PyModuleState() override { Release(&ReleaseObject, object_); }
  PyObject* object() const { return object_; }

 private:
  PyObject* object_;  // owned
};

class PyModule final : public vm::Module {
 public:
  // Takes ownership of `refs` (the interface object, the ctor and every
  // callable); `exports` point their callables into it.
  PyModule(std::string name, PyObject* iface, PyObject* ctor,
           std::vector<std::unique_ptr<PyExport>> exports, PythonRefs* refs)
      : name_(std::move(name)),
        iface_(iface),
        ctor_(ctor),
        exports_(std::move(exports)),
        refs_(refs) {}
  ~PyModule() override { ReleasePython(); }

  // Drops the module's Python references (see Create: when no VmModule and
  // no context holds the module any more). Calls and new states fail
  // after; none can come, as nothing that could make them is left.
  void ReleasePython() {
    PythonRefs* refs = std::exchange(refs_, nullptr);
    if (refs != nullptr) Release(&ReleaseRefs, refs);
  }

  std::string_view name() const override { return name_; }
  uint32_t version() const override { return 0; }
  std::span<const vm::ModuleDependency> dependencies() const override {
    return {};
  }
  size_t export_count() const override { return exports_.size(); }
  vm::ExportInfo export_info(size_t ordinal) const override {
    if (ordinal >= exports_.size()) return {};
    return {exports_[ordinal]->name, exports_[ordinal]->cconv, {}};
  }
  size_t import_count() const override { return 0; }
  vm::ImportInfo import_info(size_t) const override { return {}; }

  Result<std::unique_ptr<vm::ModuleState>> CreateState(vm::Context&) override {
    if (refs_ == nullptr) return Destroyed();
    nb::gil_scoped_acquire gil;
    PyObject* state = PyObject_CallOneArg(ctor_, iface_);
    if (state == nullptr) {
      return MakeStatus(StatusCode::kUnknown,
                        "Exception in call to PyModule constructor of '%s': %s",
                        name_.c_str(), TakePythonError().c_str());
    }
    return std::unique_ptr<vm::ModuleState>(new PyModuleState(state));
  }

  Status ResolveImport(vm::ModuleState&, size_t, const vm::Function&) override {
    return UnimplementedError("Python modules do not support imports");
  }

  Status Call(vm::Context&, vm::ModuleState& state,
              const vm::Function& function,
              std::span<const vm::Variant> arguments,
              std::span<vm::Variant> results) override {
    if (function.linkage != vm::FunctionLinkage::kExport ||
        function.ordinal >= exports_.size()) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "Python module '%s' has no function %u (linkage %d)",
                        name_.c_str(), function.ordinal,
                        static_cast<int>(function.linkage));
    }
    if (refs_ == nullptr) return Destroyed();
    const PyExport& f = *exports_[function.ordinal];
    const vm::CconvSide& argument_types = f.parsed.arguments;
    const vm::CconvSide& result_types = f.parsed.results;
    if (arguments.size() != argument_types.size() ||
        results.size() != result_types.size()) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "%s.%s (%s) called with %zu arguments and %zu results",
                        name_.c_str(), f.name.c_str(), f.cconv.c_str(),
                        arguments.size(), results.size());
    }
    PyObject* state_object = static_cast<PyModuleState&>(state).object();

    nb::gil_scoped_acquire gil;
    PyObject* call_arguments =
        PyTuple_New(static_cast<Py_ssize_t>(arguments.size() + 1));
    if (call_arguments == nullptr) return PythonFailure(f, "packing arguments");
    Py_INCREF(state_object);
    PyTuple_SET_ITEM(call_arguments, 0, state_object);
    for (size_t i = 0; i < arguments.size(); ++i) {
      PyObject* item = nullptr;
      Status status =
          ArgumentToPython(f, i, argument_types[i].type, arguments[i], &item);
      if (!status.ok()) {
        Py_DECREF(call_arguments);
        return status;
      }
      PyTuple_SET_ITEM(call_arguments, static_cast<Py_ssize_t>(i + 1), item);
    }
    PyObject* returned = PyObject_Call(f.callable, call_arguments, nullptr);
    Py_DECREF(call_arguments);
    if (returned == nullptr) return PythonFailure(f, "raised");
    Status status = UnpackResults(f, returned, results);
    Py_DECREF(returned);
    return status;
  }

 private:
  Status Destroyed() const {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "Python module '%s' was destroyed", name_.c_str());
  }

  Status PythonFailure(const PyExport& f, const char* what) const {
    return MakeStatus(StatusCode::kUnknown,
                      "Exception raised from Python module function '%s.%s' "
                      "(%s): %s",
                      name_.c_str(), f.name.c_str(), what,
                      TakePythonError().c_str());
  }

  Status ArgumentToPython(const PyExport& f, size_t index, vm::CconvType type,
                          const vm::Variant& argument, PyObject** out) const {
    if (type == vm::CconvType::kRef) {
      if (argument.is_value()) return WrongArgument(f, index, type);
      try {
        *out = WrapRef(argument.ref()).release().ptr();
      } catch (nb::python_error& error) {
        // nanobind has taken the error out of the interpreter already.
        return MakeStatus(StatusCode::kUnknown,
                          "%s.%s: wrapping ref argument %zu failed: %s",
                          name_.c_str(), f.name.c_str(), index, error.what());
      }
      return Status::Ok();
    }
    const vm::Value& value = argument.value();
    if (value.type() != vm::ValueTypeOfCconv(type)) {
      return WrongArgument(f, index, type);
    }
    switch (type) {
      case vm::CconvType::kI32: *out = PyLong_FromLong(value.i32()); break;
      case vm::CconvType::kI64: *out = PyLong_FromLongLong(value.i64()); break;
      case vm::CconvType::kF32: *out = PyFloat_FromDouble(value.f32()); break;
      case vm::CconvType::kF64: *out = PyFloat_FromDouble(value.f64()); break;
      default: return WrongArgument(f, index, type);
    }
    if (*out == nullptr) return PythonFailure(f, "converting an argument");
    return Status::Ok();
  }

  Status WrongArgument(const PyExport& f, size_t index,
                       vm::CconvType type) const {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "%s.%s: argument %zu is not the %s its cconv %s declares",
                      name_.c_str(), f.name.c_str(), index,
                      vm::CconvTypeName(type), f.cconv.c_str());
  }

  Status WrongResult(const PyExport& f, size_t index, vm::CconvType type,
                     PyObject* value, const std::string& detail) const {
    return MakeStatus(
        StatusCode::kFailedPrecondition,
        "%s.%s returned a %s as result %zu, which must be %s (cconv %s)%s%s",
        name_.c_str(), f.name.c_str(), Py_TYPE(value)->tp_name, index,
        type == vm::CconvType::kRef   ? "a VmRef (None is not allowed)"
        : type == vm::CconvType::kI32 ? "an int in the i32 range"
        : type == vm::CconvType::kI64 ? "an int in the i64 range"
                                      : "a float",
        f.cconv.c_str(), detail.empty() ? "" : ": ", detail.c_str());
  }

  // Converts one result; on failure clears any Python error it raised.
  Status ResultFromPython(const PyExport& f, size_t index, vm::CconvType type,
                          PyObject* value, vm::Variant* out) const {
    switch (type) {
      case vm::CconvType::kI32:
      case vm::CconvType::kI64: {
        if (PyFloat_Check(value) || !PyIndex_Check(value)) {
          return WrongResult(f, index, type, value, "");
        }
        int overflow = 0;
        PyObject* as_int = PyNumber_Index(value);
        long long number =
            as_int ? PyLong_AsLongLongAndOverflow(as_int, &overflow) : -1;
        Py_XDECREF(as_int);
        if (PyErr_Occurred()) {
          return WrongResult(f, index, type, value, TakePythonError());
        }
        if (overflow != 0 || (type == vm::CconvType::kI32 &&
                              (number < INT32_MIN || number > INT32_MAX))) {
          return WrongResult(f, index, type, value, "out of range");
        }
        *out = type == vm::CconvType::kI32
                   ? vm::Value::I32(static_cast<int32_t>(number))
                   : vm::Value::I64(static_cast<int64_t>(number));
        return Status::Ok();
      }
      case vm::CconvType::kF32:
      case vm::CconvType::kF64: {
        double number = PyFloat_AsDouble(value);
        if (number == -1.0 && PyErr_Occurred()) {
          return WrongResult(f, index, type, value, TakePythonError());
        }
        *out = type == vm::CconvType::kF32
                   ? vm::Value::F32(static_cast<float>(number))
                   : vm::Value::F64(number);
        return Status::Ok();
      }
      case vm::CconvType::kRef: {
        if (value == Py_None) return WrongResult(f, index, type, value, "");
        PyVmRef* ref = nullptr;
        if (nb::try_cast<PyVmRef*>(nb::handle(value), ref) && ref != nullptr) {
          *out = ref->ref;
          return Status::Ok();
        }
        // Any wrapper with the ref protocol (HalBufferView, VmVariantList).
        PyObject* attr = PyObject_GetAttrString(value, kRefAttr);
        if (attr == nullptr) {
          if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
            return WrongResult(f, index, type, value, TakePythonError());
          }
        } else {
          bool is_ref =
              nb::try_cast<PyVmRef*>(nb::handle(attr), ref) && ref != nullptr;
          if (is_ref) *out = ref->ref;
          Py_DECREF(attr);
          if (is_ref) return Status::Ok();
        }
        PyErr_Clear();
        return WrongResult(f, index, type, value, "");
      }
      default: break;
    }
    return WrongResult(f, index, type, value, "unsupported cconv type");
  }

  Status UnpackResults(const PyExport& f, PyObject* returned,
                       std::span<vm::Variant> results) const {
    const vm::CconvSide& types = f.parsed.results;
    if (types.size() == 0) return Status::Ok();
    if (types.size() == 1) {
      return ResultFromPython(f, 0, types[0].type, returned, &results[0]);
    }
    if (!PySequence_Check(returned) || PyUnicode_Check(returned) ||
        PyBytes_Check(returned)) {
      return MakeStatus(StatusCode::kFailedPrecondition,
                        "%s.%s must return a sequence of %zu results (cconv "
                        "%s), not a %s",
                        name_.c_str(), f.name.c_str(), types.size(),
                        f.cconv.c_str(), Py_TYPE(returned)->tp_name);
    }
    Py_ssize_t count = PySequence_Size(returned);
    if (count < 0) return PythonFailure(f, "sizing its results");
    if (static_cast<size_t>(count) != types.size()) {
      return MakeStatus(StatusCode::kFailedPrecondition,
                        "%s.%s returned %zd results; its cconv %s declares %zu",
                        name_.c_str(), f.name.c_str(), count, f.cconv.c_str(),
                        types.size());
    }
    for (size_t i = 0; i < types.size(); ++i) {
      PyObject* item = PySequence_GetItem(returned, static_cast<Py_ssize_t>(i));
      if (item == nullptr) return PythonFailure(f, "reading its results");
      Status status = ResultFromPython(f, i, types[i].type, item, &results[i]);
      Py_DECREF(item);
      EMBER_RETURN_IF_ERROR(status);
    }
    return Status::Ok();
  }

  std::string name_;
  PyObject* iface_;  // borrowed from refs_
  PyObject* ctor_;   // borrowed from refs_
  std::vector<std::unique_ptr<PyExport>> exports_;
  PythonRefs* refs_;  // owned
};

// ---- the Python class
// -----------------------------------------------------------

struct PyModuleInterface {
  struct Declared {
    std::string name;
    std::string cconv;  // canonical
    nb::object callable;
  };

  std::string module_name;
  nb::object ctor;
  std::vector<Declared> exports;
  bool initialized = false;
  std::weak_ptr<vm::Module> module;

  bool destroyed() const { return initialized && module.expired(); }

  std::string ToString() const {
    std::string text = "<iree.runtime.PyModuleInterface '" + module_name + "'";
    if (initialized) text += destroyed() ? " destroyed" : " initialized";
    return text + ">";
  }

  void AssertMutable() const {
    if (initialized) {
      throw std::runtime_error("Attempt to mutate a frozen PyModuleInterface");
    }
  }

  void ExportFunction(std::string name, std::string cconv,
                      nb::object callable) {
    AssertMutable();
    for (const auto& existing : exports) {
      if (existing.name == name) {
        throw nb::value_error(
            ("PyModule function already defined: " + name).c_str());
      }
    }
    if (!cconv.empty() && cconv[0] != '0') {
      // As upstream: another version is unsupported rather than malformed.
      CheckStatus(UnimplementedError("unsupported cconv version '" +
                                     cconv.substr(0, 1) + "'"),
                  ("Unparsable calling convention '" + cconv +
                   "' of PyModule function " + name)
                      .c_str());
    }
    std::string canonical = CanonicalCconv(cconv);
    Result<vm::CallingConvention> parsed =
        vm::ParseCallingConvention(canonical);
    if (!parsed.ok()) {
      CheckStatus(parsed.status(), ("Unparsable calling convention '" + cconv +
                                    "' of PyModule function " + name)
                                       .c_str());
    }
    if (parsed.value().arguments.has_span || parsed.value().results.has_span) {
      throw nb::value_error(("PyModules do not yet support variadic "
                             "arguments/results (function " +
                             name + ", cconv '" + cconv + "')")
                                .c_str());
    }
    if (!PyCallable_Check(callable.ptr())) {
      throw nb::type_error(
          ("PyModule function " + name + " is not callable").c_str());
    }
    exports.push_back(
        {std::move(name), std::move(canonical), std::move(callable)});
  }

  VmModule Create(nb::handle self) {
    AssertMutable();
    auto* refs = new PythonRefs();
    refs->objects.reserve(exports.size() + 2);
    refs->objects.push_back(nb::borrow(self).release().ptr());
    refs->objects.push_back(nb::borrow(ctor).release().ptr());
    std::vector<std::unique_ptr<PyExport>> frozen;
    frozen.reserve(exports.size());
    for (const Declared& e : exports) {
      auto f = std::make_unique<PyExport>();
      f->name = e.name;
      f->cconv = e.cconv;
      // Checked by Export(); the views point into f->cconv, which stays put.
      f->parsed = vm::ParseCallingConvention(f->cconv).value();
      f->callable = nb::borrow(e.callable).release().ptr();
      refs->objects.push_back(f->callable);
      frozen.push_back(std::move(f));
    }
    auto core =
        std::make_shared<PyModule>(module_name, refs->objects[0],
                                   refs->objects[1], std::move(frozen), refs);
    // The handle that VmModules and contexts hold: the same module, with its
    // own count, whose end releases the Python side (upstream's destroy).
    // VmFunctions hold `core` only, so a function object kept around does
    // not keep the callables alive (upstream's holds no reference at all).
    std::shared_ptr<vm::Module> handle(core.get(), [core](vm::Module*) mutable {
      core->ReleasePython();
      core.reset();
    });
    initialized = true;
    module = handle;
    VmModule result;
    result.module = std::move(handle);
    result.function_owner = std::move(core);
    return result;
  }
};

int InterfaceTraverse(PyObject* self, visitproc visit, void* arg) {
#if PY_VERSION_HEX >= 0x03090000
  Py_VISIT(Py_TYPE(self));
#endif
  if (!nb::inst_ready(self)) return 0;
  auto* iface = nb::inst_ptr<PyModuleInterface>(self);
  Py_VISIT(iface->ctor.ptr());
  for (const auto& e : iface->exports) Py_VISIT(e.callable.ptr());
  return 0;
}

int InterfaceClear(PyObject* self) {
  if (!nb::inst_ready(self)) return 0;
  auto* iface = nb::inst_ptr<PyModuleInterface>(self);
  nb::object ctor = std::move(iface->ctor);
  std::vector<PyModuleInterface::Declared> exports = std::move(iface->exports);
  iface->exports.clear();
  // `ctor` and `exports` drop their references here, after the interface
  // no longer points at them.
  return 0;
}

PyType_Slot kInterfaceSlots[] = {
    {Py_tp_traverse, reinterpret_cast<void*>(&InterfaceTraverse)},
    {Py_tp_clear, reinterpret_cast<void*>(&InterfaceClear)},
    {0, nullptr}};

}  // namespace

void BindPyModule(nb::module_& m) {
  nb::class_<PyModuleInterface>(
      m, "PyModuleInterface", nb::type_slots(kInterfaceSlots),
      nb::is_weak_referenceable(),
      "Builds a native VM module whose exports call Python: export() "
      "functions with their calling conventions, then create() the VmModule. "
      "`ctor(iface)` runs once per VmContext the module is registered in and "
      "returns the state passed as the first argument of every export.")
      .def(nb::init<std::string, nb::object>(), "module_name"_a, "ctor"_a,
           "An empty, mutable module named `module_name` whose per-context "
           "state `ctor(iface)` makes.")
      .def("__str__", &PyModuleInterface::ToString)
      .def_prop_ro(
          "initialized",
          [](const PyModuleInterface& self) { return self.initialized; },
          "Whether create() has been called (the interface is frozen).")
      .def_prop_ro("destroyed", &PyModuleInterface::destroyed,
                   "Whether the module create() made has been freed.")
      .def(
          "create",
          [](PyModuleInterface& self) { return self.Create(nb::find(&self)); },
          "Freezes the interface and returns its VmModule (once; a second "
          "call raises RuntimeError).")
      .def("export", &PyModuleInterface::ExportFunction, "name"_a, "cconv"_a,
           "callable"_a,
           "Declares export `name` with calling convention `cconv` (e.g. "
           "'0ii_i', '0v_r', '0rr'; i/I/f/F/r, no variadics) calling "
           "`callable(state, *args)`. ValueError for a duplicate name or a "
           "bad cconv; RuntimeError once created.");
}

}  // namespace ember::python

// The `ember._ember` extension module.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

namespace ember::python {
void BindVm(nb::module_& m);
void BindVmValues(nb::module_& m);
void BindVmContext(nb::module_& m);
void BindHal(nb::module_& m);
void BindHalExternal(nb::module_& m);
void BindFunctions(nb::module_& m);
void BindBenchmark(nb::module_& m);
void BindLoop(nb::module_& m);
void BindPyModule(nb::module_& m);
void BindIo(nb::module_& m);
void BindTrace(nb::module_& m);
void BindTokenizer(nb::module_& m);
}  // namespace ember::python

NB_MODULE(_ember, m) {
  m.doc() = "Ember: a runtime for IREE 3.11-3.13 modules (native core)";
  ember::python::BindVm(m);
  ember::python::BindVmValues(m);
  ember::python::BindVmContext(m);
  ember::python::BindHal(m);
  ember::python::BindHalExternal(m);  // extends BindHal's classes
  ember::python::BindFunctions(m);
  ember::python::BindBenchmark(m);
  ember::python::BindLoop(m);
  ember::python::BindPyModule(m);
  ember::python::BindIo(m);
  ember::python::BindTrace(m);
  ember::python::BindTokenizer(m);
}
